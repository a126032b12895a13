import { fingerprintOf, licenseId } from '../../src/security/license-id.js';
import type { Harness } from './harness.js';

/** A guild selling from a license of its own, as `/shop-admin license set` leaves it. */
export interface LicensedGuild {
  guildId: string;
  channelId: string;
  key: string;
  license: string;
}

/**
 * `count` guilds, each with its own license key (the local store accepts each, all reaching the
 * same offer), sealed in the guild's settings as `/shop-admin license set` seals it.
 */
export async function guildsWithOwnLicenses(h: Harness, count: number, prefix = 'own'): Promise<LicensedGuild[]> {
  const box = h.bot.services.secretBox;
  if (!box) throw new Error('guildsWithOwnLicenses: the harness has no ENCRYPTION_KEY');
  const guilds: LicensedGuild[] = [];
  for (let index = 0; index < count; index += 1) {
    const key = `${prefix}-license-${index}-NEVER-LOG-ME-0123456789`;
    h.store.otherKeys.add(key);
    const guild = h.discord.addGuild({ name: `Guild ${prefix} ${index}` });
    const license = licenseId(key);
    await h.bot.services.storage.guildSettings.set(guild.id, { license: { sealed: box.seal(key, guild.id), fingerprint: fingerprintOf(license), setBy: '1', setAt: h.clock.now() } });
    guilds.push({ guildId: guild.id, channelId: guild.channelId, key, license });
  }
  return guilds;
}

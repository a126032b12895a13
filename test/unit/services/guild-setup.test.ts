import Keyv from 'keyv';
import { describe, expect, it } from 'vitest';
import { ManualClock } from '../../../src/clock.js';
import { createLogger } from '../../../src/logger.js';
import { GuildSetup, SETTING_BOUNDS } from '../../../src/services/guild-setup.js';
import { GuildSettingsRepository } from '../../../src/storage/guild-settings.js';

const GUILD = '100000000000000001';
const LICENSE = { sealed: 'sealed-key', fingerprint: 'ABCD1234', setBy: '200000000000000002' };

/** The service over the real repository on an in-memory store. */
function setup() {
  const clock = new ManualClock();
  const settings = new GuildSettingsRepository(new Keyv(), createLogger('silent'));
  return { clock, settings, guildSetup: new GuildSetup(settings, clock) };
}

describe('GuildSetup', () => {
  it('switching to the demo drops the guild’s license and returns what was there before', async () => {
    const { settings, guildSetup } = setup();
    await guildSetup.saveLicense(GUILD, LICENSE);
    const before = await guildSetup.switchToDemo(GUILD);
    expect(before).toMatchObject({ demo: false, license: LICENSE });
    const now = await settings.get(GUILD);
    expect(now.demo).toBe(true);
    expect(now.license).toBeUndefined();
    expect((await guildSetup.switchToDemo(GUILD)).demo).toBe(true);
  });

  it('a saved license replaces the demo and is stamped with the time', async () => {
    const { clock, settings, guildSetup } = setup();
    await guildSetup.switchToDemo(GUILD);
    await guildSetup.saveLicense(GUILD, LICENSE);
    expect(await settings.get(GUILD)).toMatchObject({ demo: false, license: { ...LICENSE, setAt: clock.now() } });
  });

  it('clears the license and leaves the demo without touching the rest', async () => {
    const { settings, guildSetup } = setup();
    await guildSetup.saveLicense(GUILD, LICENSE);
    await guildSetup.saveServerPage(GUILD, { license: ['srv-1', 'srv-2'], page: ['srv-1', 'srv-2'], offered: ['srv-2'] });
    await guildSetup.clearLicense(GUILD);
    const cleared = await settings.get(GUILD);
    expect(cleared.license).toBeUndefined();
    expect(cleared.hiddenServerIds).toEqual(['srv-1']);
    await guildSetup.switchToDemo(GUILD);
    await guildSetup.leaveDemo(GUILD);
    expect(await settings.get(GUILD)).toMatchObject({ demo: false, hiddenServerIds: ['srv-1'] });
  });

  it('saving one page of servers changes only that page’s, and never hides them all', async () => {
    const { settings, guildSetup } = setup();
    const license = ['a', 'b', 'c', 'd'];
    // A server the license no longer lists stays hidden, in case it comes back.
    await settings.set(GUILD, { hiddenServerIds: ['gone'] });
    expect(await guildSetup.saveServerPage(GUILD, { license, page: ['c', 'd'], offered: ['d'] })).toMatchObject({
      before: { hiddenServerIds: ['gone'] },
      after: { hiddenServerIds: ['gone', 'c'] },
    });
    await guildSetup.saveServerPage(GUILD, { license, page: ['a', 'b'], offered: ['a'] });
    expect((await settings.get(GUILD)).hiddenServerIds).toEqual(['gone', 'c', 'b']);
    await guildSetup.saveServerPage(GUILD, { license, page: ['a', 'b'], offered: ['a', 'b'] });
    expect((await settings.get(GUILD)).hiddenServerIds).toEqual(['gone', 'c']);

    await guildSetup.saveServerPage(GUILD, { license, page: ['a', 'b'], offered: [] });
    expect(await guildSetup.saveServerPage(GUILD, { license, page: ['c', 'd'], offered: [] })).toBeUndefined();
    expect((await settings.get(GUILD)).hiddenServerIds).toEqual(['gone', 'c', 'a', 'b']);
  });

  it('remembers the panel posted last', async () => {
    const { settings, guildSetup } = setup();
    const panel = { channelId: '300000000000000003', messageId: '400000000000000004' };
    await guildSetup.rememberPanel(GUILD, panel);
    expect((await settings.get(GUILD)).panel).toEqual(panel);
  });

  it('brings numbers within their bounds and returns the settings before and after', async () => {
    const { guildSetup } = setup();
    const { before, after } = await guildSetup.changeSettings(GUILD, { linkLifetimeHours: 10_000, checkoutCooldownSeconds: -5, multiServerCart: true });
    expect(before.linkLifetimeHours).toBe(SETTING_BOUNDS.linkLifetimeHours.default);
    expect(after).toMatchObject({
      linkLifetimeHours: SETTING_BOUNDS.linkLifetimeHours.max,
      checkoutCooldownSeconds: SETTING_BOUNDS.checkoutCooldownSeconds.min,
      multiServerCart: true,
    });
    expect((await guildSetup.changeSettings(GUILD, { linkLifetimeHours: 0.5 })).after.linkLifetimeHours).toBe(SETTING_BOUNDS.linkLifetimeHours.min);
    expect((await guildSetup.changeSettings(GUILD, { logChannelId: null })).after.multiServerCart).toBe(true);
  });
});

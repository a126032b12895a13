import { ChannelType, type Client, type DMChannel } from 'discord.js';

/** Members remembered before the index starts over (a read of discord.js's cache, not a request, for each one after). */
const MAX_REMEMBERED = 20_000;

/**
 * Members' DM channels by member. discord.js finds a member's DM channel by walking every channel it
 * caches (`users.dmChannel`: guild channels, and the DM channels of the last hour, see
 * dm-channel-sweeper.ts) on every DM sent and on every check "is it open yet" (dm-warmer.ts): work
 * that grows with the server's traffic, on the path of every checkout in a crowd. Here the
 * channel a member's DMs went to is remembered by id and looked up directly; one discord.js no
 * longer holds (swept) is opened again the usual way.
 */
export class DmChannels {
  readonly #byMember = new Map<string, string>();

  constructor(private readonly client: Client) {}

  /** The member's DM channel: the one remembered while discord.js holds it, else opened (a request only when discord.js has none). */
  async open(userId: string): Promise<DMChannel> {
    const known = this.#known(userId);
    if (known) return known;
    const channel = await this.client.users.createDM(userId);
    if (this.#byMember.size >= MAX_REMEMBERED) this.#byMember.clear();
    this.#byMember.set(userId, channel.id);
    return channel;
  }

  /** Whether the member's DM channel is open and remembered here (no walk over the cache). */
  isOpen(userId: string): boolean {
    return this.#known(userId) !== undefined;
  }

  #known(userId: string): DMChannel | undefined {
    const id = this.#byMember.get(userId);
    if (id === undefined) return undefined;
    const channel = this.client.channels.cache.get(id);
    if (channel?.type === ChannelType.DM && !channel.partial) return channel;
    this.#byMember.delete(userId);
    return undefined;
  }
}

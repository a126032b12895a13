/**
 * The gateway half of the fake: plain JSON text frames over `ws`, sharing the HTTP server's port.
 * One session per IDENTIFY; dispatches are numbered per session and kept, so a RESUME replays exactly
 * what the client missed (nothing, when it saw everything), as Discord does.
 *
 * Sessions are sharded as on Discord: IDENTIFY's `shard: [id, count]` (default [0, 1]) decides which
 * guilds a session hears about, `(guild_id >> 22) % count === id`; DMs and other guild-less events
 * go to shard 0.
 */
import type { IncomingMessage, Server } from 'node:http';
import { randomBytes } from 'node:crypto';
import { GatewayCloseCodes, GatewayOpcodes } from 'discord-api-types/v10';
import { WebSocket, WebSocketServer } from 'ws';
import type { Json } from './payloads.js';

export const HEARTBEAT_INTERVAL_MS = 41_250;
const HISTORY_LIMIT = 10_000;

interface DispatchFrame {
  op: 0;
  t: string;
  s: number;
  d: unknown;
}

/** `[shard_id, num_shards]`, as IDENTIFY and READY carry it. */
export type ShardTuple = readonly [id: number, count: number];

/** The shard that owns a guild among `count` shards, by Discord's formula. */
export function shardOf(guildId: string, count: number): number {
  return Number((BigInt(guildId) >> 22n) % BigInt(count));
}

/** Whether a session of this shard receives the guild's events (guild-less ones: shard 0, as on Discord). */
export function shardOwns(shard: ShardTuple, guildId: string | null): boolean {
  return guildId === null ? shard[0] === 0 : shardOf(guildId, shard[1]) === shard[0];
}

/** One accepted IDENTIFY: when (the fake's clock) and for which shard. */
export interface IdentifyRecord {
  at: number;
  shard: ShardTuple;
  /** The intents it asked for. */
  intents: number;
}

/** A gateway session as a test sees it. */
export interface SessionInfo {
  id: string;
  shard: ShardTuple;
  /** False once invalidated or closed normally. */
  live: boolean;
  /** True while its socket is open (a live session may be waiting for its client to resume). */
  connected: boolean;
}

interface Session {
  id: string;
  shard: ShardTuple;
  seq: number;
  history: DispatchFrame[];
  socket: WebSocket | null;
  /** False once the session is invalidated or its client closed it normally. */
  live: boolean;
  /** IDENTIFY's `intents`: which events (and how much of a message) the session receives. */
  intents: number;
}

export interface GatewayHooks {
  /** READY's `d` for a new session of this shard. */
  readyPayload(sessionId: string, shard: ShardTuple): Json;
  /** One GUILD_CREATE `d` per guild the shard owns, sent right after READY. */
  guildCreates(shard: ShardTuple): Json[];
  /** The fake's clock, for the identify record. */
  now(): number;
}

interface Waiter {
  resolve: () => void;
}

/** Resolves once `met()` holds, checked after every IDENTIFY and RESUME. */
interface ConditionWaiter extends Waiter {
  met: () => boolean;
}

export class Gateway {
  private readonly wss: WebSocketServer;
  private readonly sessions = new Map<string, Session>();
  private readonly socketSessions = new Map<WebSocket, Session>();
  private conditionWaiters: ConditionWaiter[] = [];
  private nextReadyWaiters: (Waiter & { shardId: number | undefined })[] = [];
  private resumeWaiters: Waiter[] = [];
  private disconnectWaiters: Waiter[] = [];
  identifyCount = 0;
  resumeCount = 0;
  /** Every accepted IDENTIFY in order, so a test can check how they were paced. */
  readonly identifies: IdentifyRecord[] = [];

  constructor(
    server: Server,
    private readonly hooks: GatewayHooks,
  ) {
    this.wss = new WebSocketServer({ server });
    this.wss.on('connection', (socket: WebSocket, _req: IncomingMessage) => this.onConnection(socket));
  }

  /** Some live session exists whose READY and GUILD_CREATEs were all sent. */
  ready(): Promise<void> {
    return this.when(() => this.liveSessions().length > 0);
  }

  /** A live session exists that receives this guild's events (`null`: DMs, i.e. shard 0). */
  readyFor(guildId: string | null): Promise<void> {
    return this.when(() => this.sessionFor(guildId) !== undefined);
  }

  /** Every listed shard id has a live session. */
  shardsReady(shardIds: number[]): Promise<void> {
    return this.when(() => shardIds.every((id) => this.liveSessions().some((session) => session.shard[0] === id)));
  }

  /** The next completed IDENTIFY (READY + GUILD_CREATEs sent), of that shard id if given. */
  nextReady(shardId?: number): Promise<void> {
    return new Promise((resolve) => this.nextReadyWaiters.push({ resolve, shardId }));
  }

  sessionInfos(): SessionInfo[] {
    return [...this.sessions.values()].map((session) => ({
      id: session.id,
      shard: session.shard,
      live: session.live,
      connected: session.socket !== null && session.socket.readyState === WebSocket.OPEN,
    }));
  }

  private when(met: () => boolean): Promise<void> {
    if (met()) return Promise.resolve();
    return new Promise((resolve) => this.conditionWaiters.push({ met, resolve }));
  }

  private checkConditions(): void {
    const waiting = this.conditionWaiters;
    this.conditionWaiters = [];
    for (const waiter of waiting) {
      if (waiter.met()) waiter.resolve();
      else this.conditionWaiters.push(waiter);
    }
  }

  /**
   * Holds the next IDENTIFY or RESUME unanswered until `release()`: the moment a client is
   * connecting or resuming, for tests of what the bot reports meanwhile (its readiness).
   */
  hold(op: 'identify' | 'resume'): { reached: Promise<void>; release(): void } {
    let reached!: () => void;
    let release!: () => void;
    const reachedPromise = new Promise<void>((resolve) => (reached = resolve));
    const released = new Promise<void>((resolve) => (release = resolve));
    this.holds.set(op, { reached, released });
    return { reached: reachedPromise, release };
  }

  private readonly holds = new Map<'identify' | 'resume', { reached: () => void; released: Promise<void> }>();

  private whenReleased(op: 'identify' | 'resume', answer: () => void): void {
    const hold = this.holds.get(op);
    if (!hold) return answer();
    this.holds.delete(op);
    hold.reached();
    void hold.released.then(answer);
  }

  /** The next RESUMED sent. */
  nextResume(): Promise<void> {
    return new Promise((resolve) => this.resumeWaiters.push({ resolve }));
  }

  /** The next time a client's gateway socket closes (for whatever reason). */
  nextDisconnect(): Promise<void> {
    return new Promise((resolve) => this.disconnectWaiters.push({ resolve }));
  }

  /**
   * To the one session that handles this guild's interactions (guild-less: shard 0's), the most
   * recently identified live one; queued for replay if its socket is down. Returns that session's shard.
   */
  dispatch(t: string, d: unknown, guildId: string | null, sessionId?: string): ShardTuple {
    const session = sessionId === undefined ? this.sessionFor(guildId) : this.chosenSession(sessionId, guildId);
    if (!session) {
      throw new Error(
        guildId === null
          ? 'FakeDiscord: no gateway session of shard 0 to dispatch a DM event to (has a client logged in?)'
          : `FakeDiscord: no gateway session owns guild ${guildId} (has a client logged in with its shard?)`,
      );
    }
    this.send(session, t, d);
    return session.shard;
  }

  /**
   * To every live session whose shard owns the guild (guild and channel events); with `intent`, only
   * to sessions that identified with it (GUILD_MEMBER_REMOVE needs GUILD_MEMBERS, a privileged one).
   */
  broadcast(t: string, d: unknown, guildId: string, intent?: number): void {
    for (const session of this.sessions.values()) {
      if (!session.live || !shardOwns(session.shard, guildId)) continue;
      if (intent !== undefined && (session.intents & intent) === 0) continue;
      this.send(session, t, d);
    }
  }

  /**
   * To every live session owning the guild, each getting what its intents allow (`view` answers
   * undefined: not sent at all), as Discord does with MESSAGE_CREATE.
   */
  broadcastByIntents(t: string, guildId: string, view: (intents: number) => unknown): void {
    for (const session of this.sessions.values()) {
      if (!session.live || !shardOwns(session.shard, guildId)) continue;
      const d = view(session.intents);
      if (d !== undefined) this.send(session, t, d);
    }
  }

  /** Op 7 to the most recent live session (of that shard id if given). */
  requestReconnect(shardId?: number): void {
    const socket = this.connectedSocket('requestReconnect', this.latestSession(shardId));
    socket.send(JSON.stringify({ op: GatewayOpcodes.Reconnect, d: null }));
  }

  /** Op 9 to the most recent live session (of that shard id if given). */
  invalidateSession(resumable: boolean, shardId?: number): void {
    const session = this.latestSession(shardId);
    const socket = this.connectedSocket('invalidateSession', session);
    if (!resumable && session) this.kill(session);
    socket.send(JSON.stringify({ op: GatewayOpcodes.InvalidSession, d: resumable }));
  }

  async close(): Promise<void> {
    for (const socket of this.wss.clients) socket.terminate();
    await new Promise<void>((resolve) => this.wss.close(() => resolve()));
    this.sessions.clear();
    this.socketSessions.clear();
  }

  // ---- internals ---------------------------------------------------------------------------------------

  private liveSessions(): Session[] {
    return [...this.sessions.values()].filter((session) => session.live);
  }

  /** The most recently identified live session (Map order is identify order). */
  private latestSession(shardId?: number): Session | undefined {
    return this.liveSessions()
      .filter((session) => shardId === undefined || session.shard[0] === shardId)
      .at(-1);
  }

  /** The session that receives the guild's interactions: the most recently identified live one owning it. */
  private sessionFor(guildId: string | null): Session | undefined {
    return this.liveSessions()
      .filter((session) => shardOwns(session.shard, guildId))
      .at(-1);
  }

  /** The session a test chose for an interaction: live and owning the guild, or an error saying which is not. */
  private chosenSession(sessionId: string, guildId: string | null): Session {
    const session = this.sessions.get(sessionId);
    if (!session?.live) throw new Error(`FakeDiscord: gateway session ${sessionId} is not live`);
    if (!shardOwns(session.shard, guildId)) throw new Error(`FakeDiscord: gateway session ${sessionId} (shard ${session.shard.join('/')}) does not own guild ${guildId}`);
    return session;
  }

  private connectedSocket(what: string, session: Session | undefined): WebSocket {
    const socket = session?.socket;
    if (!socket || socket.readyState !== WebSocket.OPEN) {
      throw new Error(`FakeDiscord.${what}: no connected gateway session`);
    }
    return socket;
  }

  private send(session: Session, t: string, d: unknown): void {
    session.seq += 1;
    const frame: DispatchFrame = { op: 0, t, s: session.seq, d };
    session.history.push(frame);
    if (session.history.length > HISTORY_LIMIT) session.history.shift();
    const socket = session.socket;
    if (socket && socket.readyState === WebSocket.OPEN) socket.send(JSON.stringify(frame));
  }

  private kill(session: Session): void {
    session.live = false;
    this.sessions.delete(session.id);
  }

  private onConnection(socket: WebSocket): void {
    socket.send(JSON.stringify({ op: GatewayOpcodes.Hello, d: { heartbeat_interval: HEARTBEAT_INTERVAL_MS } }));
    socket.on('message', (raw, isBinary) => {
      if (isBinary) {
        socket.close(GatewayCloseCodes.DecodeError, 'binary frames are not supported by the fake');
        return;
      }
      let payload: { op?: unknown; d?: unknown };
      try {
        payload = JSON.parse(raw.toString()) as { op?: unknown; d?: unknown };
      } catch {
        socket.close(GatewayCloseCodes.DecodeError, 'Error while decoding payload.');
        return;
      }
      this.onPayload(socket, payload.op, payload.d);
    });
    socket.on('close', (code) => {
      const session = this.socketSessions.get(socket);
      this.socketSessions.delete(socket);
      if (!session) return;
      if (session.socket === socket) session.socket = null;
      // A normal close ends the session on Discord; anything else (4200 from a client about to resume,
      // a dropped connection) keeps it resumable.
      if (code === 1000 || code === 1001) this.kill(session);
      flush(this.disconnectWaiters);
      this.disconnectWaiters = [];
    });
    socket.on('error', () => {
      /* a client vanishing is not the fake's failure */
    });
  }

  private onPayload(socket: WebSocket, op: unknown, d: unknown): void {
    switch (op) {
      case GatewayOpcodes.Heartbeat:
        socket.send(JSON.stringify({ op: GatewayOpcodes.HeartbeatAck }));
        return;
      case GatewayOpcodes.Identify:
        this.whenReleased('identify', () => this.onIdentify(socket, d));
        return;
      case GatewayOpcodes.Resume:
        this.whenReleased('resume', () => this.onResume(socket, d));
        return;
      default:
        // Presence updates, voice state updates, member requests: accepted and ignored.
        return;
    }
  }

  private onIdentify(socket: WebSocket, d: unknown): void {
    if (this.socketSessions.has(socket)) {
      socket.close(GatewayCloseCodes.AlreadyAuthenticated, 'Already authenticated.');
      return;
    }
    const shard = identifyShard(d);
    if (!shard) {
      socket.close(GatewayCloseCodes.InvalidShard, 'Invalid shard.');
      return;
    }
    const session: Session = {
      id: randomBytes(16).toString('hex'),
      shard,
      seq: 0,
      history: [],
      socket,
      live: true,
      intents: identifyIntents(d),
    };
    this.sessions.set(session.id, session);
    this.socketSessions.set(socket, session);
    this.identifyCount += 1;
    this.identifies.push({ at: this.hooks.now(), shard, intents: session.intents });
    this.send(session, 'READY', this.hooks.readyPayload(session.id, shard));
    for (const guild of this.hooks.guildCreates(shard)) this.send(session, 'GUILD_CREATE', guild);
    this.checkConditions();
    const waiting = this.nextReadyWaiters;
    this.nextReadyWaiters = [];
    for (const waiter of waiting) {
      if (waiter.shardId === undefined || waiter.shardId === shard[0]) waiter.resolve();
      else this.nextReadyWaiters.push(waiter);
    }
  }

  private onResume(socket: WebSocket, d: unknown): void {
    const { session_id: sessionId, seq } = (d ?? {}) as { session_id?: unknown; seq?: unknown };
    const session = typeof sessionId === 'string' ? this.sessions.get(sessionId) : undefined;
    if (!session || !session.live) {
      socket.send(JSON.stringify({ op: GatewayOpcodes.InvalidSession, d: false }));
      return;
    }
    const previous = session.socket;
    if (previous && previous !== socket) {
      this.socketSessions.delete(previous);
      previous.terminate();
    }
    session.socket = socket;
    this.socketSessions.set(socket, session);
    const seen = typeof seq === 'number' ? seq : 0;
    for (const frame of session.history) if (frame.s > seen) socket.send(JSON.stringify(frame));
    this.send(session, 'RESUMED', { _trace: ['["fake-discord",{"micros":0}]'] });
    this.resumeCount += 1;
    flush(this.resumeWaiters);
    this.resumeWaiters = [];
    this.checkConditions();
  }
}

/**
 * IDENTIFY's `shard`, checked as Discord checks it (close 4010 otherwise): whole numbers,
 * count at least 1, id below count. No `shard` at all means the one shard, [0, 1].
 */
function identifyShard(d: unknown): ShardTuple | undefined {
  const { shard } = (d ?? {}) as { shard?: unknown };
  if (shard === undefined || shard === null) return [0, 1];
  if (!Array.isArray(shard) || shard.length !== 2) return undefined;
  const [id, count] = shard as unknown[];
  if (typeof id !== 'number' || typeof count !== 'number' || !Number.isInteger(id) || !Number.isInteger(count)) return undefined;
  return count >= 1 && id >= 0 && id < count ? [id, count] : undefined;
}

function identifyIntents(d: unknown): number {
  const { intents } = (d ?? {}) as { intents?: unknown };
  return typeof intents === 'number' && Number.isInteger(intents) ? intents : 0;
}

function flush(waiters: Waiter[]): void {
  for (const waiter of waiters) waiter.resolve();
}

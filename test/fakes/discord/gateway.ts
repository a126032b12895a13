/**
 * The gateway half of the fake: plain JSON text frames over `ws`, sharing the HTTP server's port.
 * One session per IDENTIFY; dispatches are numbered per session and kept, so a RESUME replays exactly
 * what the client missed (nothing, when it saw everything), as Discord does.
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

interface Session {
  id: string;
  seq: number;
  history: DispatchFrame[];
  socket: WebSocket | null;
  /** False once the session is invalidated or its client closed it normally. */
  live: boolean;
}

export interface GatewayHooks {
  /** READY's `d` for a new session. */
  readyPayload(sessionId: string): Json;
  /** One GUILD_CREATE `d` per guild, sent right after READY. */
  guildCreates(): Json[];
}

interface Waiter {
  resolve: () => void;
}

export class Gateway {
  private readonly wss: WebSocketServer;
  private readonly sessions = new Map<string, Session>();
  private readonly socketSessions = new Map<WebSocket, Session>();
  /** The session that receives interactions: the most recent live one. */
  private current: Session | null = null;
  private readyWaiters: Waiter[] = [];
  private nextReadyWaiters: Waiter[] = [];
  private resumeWaiters: Waiter[] = [];
  private disconnectWaiters: Waiter[] = [];
  identifyCount = 0;
  resumeCount = 0;

  constructor(
    server: Server,
    private readonly hooks: GatewayHooks,
  ) {
    this.wss = new WebSocketServer({ server });
    this.wss.on('connection', (socket: WebSocket, _req: IncomingMessage) => this.onConnection(socket));
  }

  /** True while a live session exists whose READY and GUILD_CREATEs were all sent. */
  get isReady(): boolean {
    return this.current !== null;
  }

  ready(): Promise<void> {
    if (this.current) return Promise.resolve();
    return new Promise((resolve) => this.readyWaiters.push({ resolve }));
  }

  /** The next completed IDENTIFY (READY + GUILD_CREATEs sent). */
  nextReady(): Promise<void> {
    return new Promise((resolve) => this.nextReadyWaiters.push({ resolve }));
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

  /** To the session that handles interactions (queued for replay if its socket is down). */
  dispatch(t: string, d: unknown): void {
    if (!this.current) throw new Error('FakeDiscord: no gateway session to dispatch to (has a client logged in?)');
    this.send(this.current, t, d);
  }

  /** To every live session (guild and channel events). */
  broadcast(t: string, d: unknown): void {
    for (const session of this.sessions.values()) if (session.live) this.send(session, t, d);
  }

  requestReconnect(): void {
    const socket = this.currentSocket('requestReconnect');
    socket.send(JSON.stringify({ op: GatewayOpcodes.Reconnect, d: null }));
  }

  invalidateSession(resumable: boolean): void {
    const session = this.current;
    const socket = this.currentSocket('invalidateSession');
    if (!resumable && session) this.kill(session);
    socket.send(JSON.stringify({ op: GatewayOpcodes.InvalidSession, d: resumable }));
  }

  async close(): Promise<void> {
    for (const socket of this.wss.clients) socket.terminate();
    await new Promise<void>((resolve) => this.wss.close(() => resolve()));
    this.sessions.clear();
    this.socketSessions.clear();
    this.current = null;
  }

  // ---- internals ---------------------------------------------------------------------------------------

  private currentSocket(what: string): WebSocket {
    const socket = this.current?.socket;
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
    if (this.current === session) {
      this.current = null;
      for (const other of this.sessions.values()) if (other.live) this.current = other;
    }
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
        this.whenReleased('identify', () => this.onIdentify(socket));
        return;
      case GatewayOpcodes.Resume:
        this.whenReleased('resume', () => this.onResume(socket, d));
        return;
      default:
        // Presence updates, voice state updates, member requests: accepted and ignored.
        return;
    }
  }

  private onIdentify(socket: WebSocket): void {
    if (this.socketSessions.has(socket)) {
      socket.close(GatewayCloseCodes.AlreadyAuthenticated, 'Already authenticated.');
      return;
    }
    const session: Session = {
      id: randomBytes(16).toString('hex'),
      seq: 0,
      history: [],
      socket,
      live: true,
    };
    this.sessions.set(session.id, session);
    this.socketSessions.set(socket, session);
    this.identifyCount += 1;
    this.send(session, 'READY', this.hooks.readyPayload(session.id));
    for (const guild of this.hooks.guildCreates()) this.send(session, 'GUILD_CREATE', guild);
    this.current = session;
    flush(this.readyWaiters);
    this.readyWaiters = [];
    flush(this.nextReadyWaiters);
    this.nextReadyWaiters = [];
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
    if (!this.current) this.current = session;
    this.resumeCount += 1;
    flush(this.resumeWaiters);
    this.resumeWaiters = [];
    flush(this.readyWaiters);
    this.readyWaiters = [];
  }
}

function flush(waiters: Waiter[]): void {
  for (const waiter of waiters) waiter.resolve();
}

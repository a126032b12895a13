/**
 * A DevTools protocol session with the bot (BENCH_PROFILE=1 starts it with `--inspect=127.0.0.1:0`):
 * the bench starts and stops V8's CPU profiler and sampling heap profiler around a phase, from outside,
 * so the bot runs its own code unchanged and nothing is profiled outside the phase.
 */
import WebSocket from 'ws';
import type { Watched } from './process.js';

export interface Inspector {
  send<T = unknown>(method: string, params?: Record<string, unknown>): Promise<T>;
  close(): void;
}

/** Node prints `Debugger listening on ws://…` on stderr once the inspector is up (before the bot's own code runs). */
function inspectorUrl(proc: Watched): string | undefined {
  for (const line of proc.lines) {
    const url = /Debugger listening on (ws:\/\/\S+)/.exec(line)?.[1];
    if (url) return url;
  }
  return undefined;
}

export async function connectInspector(proc: Watched): Promise<Inspector> {
  const url = inspectorUrl(proc);
  if (!url) throw new Error('the bot was not started with --inspect (BENCH_PROFILE=1)');
  const socket = new WebSocket(url);
  await new Promise<void>((resolve, reject) => {
    socket.once('open', () => resolve());
    socket.once('error', reject);
  });
  let nextId = 1;
  const waiting = new Map<number, { resolve: (value: unknown) => void; reject: (error: Error) => void }>();
  socket.on('message', (data) => {
    const message = JSON.parse(String(data)) as { id?: number; result?: unknown; error?: { message: string } };
    const entry = message.id === undefined ? undefined : waiting.get(message.id);
    if (!entry) return; // events (console, GC) are not asked for
    waiting.delete(message.id!);
    if (message.error) entry.reject(new Error(message.error.message));
    else entry.resolve(message.result);
  });
  return {
    send: <T>(method: string, params: Record<string, unknown> = {}) =>
      new Promise<T>((resolve, reject) => {
        const id = nextId++;
        waiting.set(id, { resolve: resolve as (value: unknown) => void, reject });
        socket.send(JSON.stringify({ id, method, params }));
      }),
    close: () => socket.close(),
  };
}

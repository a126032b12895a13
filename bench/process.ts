/* Child processes for the benchmark: spawn, watch memory and CPU through /proc, stop. */
import { spawn, type ChildProcess } from 'node:child_process';
import { readFileSync } from 'node:fs';

export interface Watched {
  readonly child: ChildProcess;
  readonly pid: number;
  /** performance.now() just before spawn(). */
  readonly spawnedAt: number;
  /** stdout + stderr lines, as written. */
  readonly lines: string[];
  /** Largest VmRSS sampled while running (bytes). */
  peakSampledRss: number;
  readonly exited: Promise<number | null>;
  /** VmRSS / VmHWM now (bytes); undefined once the process is gone. */
  memory(): { rss: number; hwm: number } | undefined;
  /** User + system CPU time consumed so far (ms). */
  cpuMs(): number | undefined;
  /** SIGTERM, then SIGKILL after `graceMs`; resolves with the exit code. */
  stop(graceMs?: number): Promise<number | null>;
}

const CLOCK_TICKS = 100;

export function readProcMemory(pid: number): { rss: number; hwm: number } | undefined {
  try {
    const status = readFileSync(`/proc/${pid}/status`, 'utf8');
    const kb = (name: string) => Number(new RegExp(`^${name}:\\s+(\\d+) kB`, 'm').exec(status)?.[1] ?? Number.NaN) * 1024;
    return { rss: kb('VmRSS'), hwm: kb('VmHWM') };
  } catch {
    return undefined;
  }
}

export function readProcCpuMs(pid: number): number | undefined {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    // Fields after the command name (which may contain spaces) start after the last ')'.
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    const utime = Number(fields[11]);
    const stime = Number(fields[12]);
    return ((utime + stime) * 1000) / CLOCK_TICKS;
  } catch {
    return undefined;
  }
}

export function startWatched(command: string, args: string[], options: { cwd: string; env: NodeJS.ProcessEnv; sampleEveryMs?: number }): Watched {
  const spawnedAt = performance.now();
  const child = spawn(command, args, { cwd: options.cwd, env: options.env, stdio: ['ignore', 'pipe', 'pipe'] });
  if (child.pid === undefined) throw new Error(`could not start ${command} ${args.join(' ')}`);
  const pid = child.pid;
  const lines: string[] = [];
  const collect = (chunk: Buffer) => {
    for (const line of chunk.toString('utf8').split('\n')) if (line.trim()) lines.push(line);
  };
  child.stdout?.on('data', collect);
  child.stderr?.on('data', collect);
  const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
  let running = true;
  void exited.then(() => {
    running = false;
  });

  const watched: Watched = {
    child,
    pid,
    spawnedAt,
    lines,
    peakSampledRss: 0,
    exited,
    memory: () => (running ? readProcMemory(pid) : undefined),
    cpuMs: () => (running ? readProcCpuMs(pid) : undefined),
    async stop(graceMs = 10_000) {
      if (!running) return exited;
      child.kill('SIGTERM');
      const timer = setTimeout(() => child.kill('SIGKILL'), graceMs);
      const code = await exited;
      clearTimeout(timer);
      return code;
    },
  };
  const sampler = setInterval(() => {
    const memory = watched.memory();
    if (memory && memory.rss > watched.peakSampledRss) watched.peakSampledRss = memory.rss;
  }, options.sampleEveryMs ?? 200);
  sampler.unref();
  void exited.then(() => clearInterval(sampler));
  return watched;
}

/** Waits for `ready`; fails with the process's last lines if it exits first or is not ready within 30 s. */
export async function untilReady(proc: Watched, label: string, ready: Promise<unknown>): Promise<void> {
  let timer: NodeJS.Timeout | undefined;
  await Promise.race([
    ready,
    proc.exited.then((code) => {
      throw new Error(`${label} exited with ${code} before it was ready:\n${proc.lines.slice(-10).join('\n')}`);
    }),
    new Promise((_resolve, reject) => {
      timer = setTimeout(() => reject(new Error(`${label} not ready within 30 s:\n${proc.lines.slice(-10).join('\n')}`)), 30_000);
    }),
  ]).finally(() => clearTimeout(timer));
}

/** Runs a node script to completion and returns its stdout (stderr is passed through). */
function runToEnd(command: string, args: string[], options: { cwd: string; env: NodeJS.ProcessEnv }): Promise<{ code: number | null; stdout: string }> {
  return new Promise((resolve, reject) => {
    const child = spawn(command, args, { cwd: options.cwd, env: options.env, stdio: ['ignore', 'pipe', 'inherit'] });
    let stdout = '';
    child.stdout?.on('data', (chunk: Buffer) => (stdout += chunk.toString('utf8')));
    child.once('error', reject);
    child.once('exit', (code) => resolve({ code, stdout }));
  });
}

/**
 * Runs one of the bench's scripts under node to its end, in a process of its own so that its figures
 * are its own, with no more of this environment than PATH; its result is the JSON line it prints last.
 */
export async function runJsonScript(script: string, args: string[], cwd: string, env: Record<string, string> = {}): Promise<Record<string, unknown>> {
  const { stdout } = await runToEnd(process.execPath, [script, ...args], { cwd, env: { PATH: process.env.PATH ?? '', HOME: cwd, ...env } });
  return JSON.parse(stdout.trim().split('\n').at(-1) ?? '{}') as Record<string, unknown>;
}

import { lookup } from 'node:dns/promises';
import { createServer, isIP } from 'node:net';
import { networkInterfaces } from 'node:os';
import type { Config } from '../config.js';

/**
 * The addresses the bot listens on, checked with the other settings before anything connects: a
 * HEALTH_HOST with a typo or an address of another machine failed only at the listener, after the
 * storage had opened, as a fatal "could not log in to Discord". And a DEMO_PORT another program has
 * is told at start, not at the first demo checkout (where members read that the shop is not answering).
 */

const LISTEN_HINT = "use 127.0.0.1 (this machine only), 0.0.0.0 (every network interface) or one of this machine's addresses";

/** True for an address this machine can listen on: a wildcard, a loopback address, or one of its interfaces'. */
function isOwnAddress(address: string): boolean {
  if (['0.0.0.0', '::'].includes(address) || /^127\./.test(address) || address === '::1') return true;
  const own = Object.values(networkInterfaces()).flatMap((entries) => (entries ?? []).map((entry) => entry.address.toLowerCase()));
  return own.includes(address.toLowerCase().replace(/%.*$/, ''));
}

/** What is wrong with `host` as a listening address for `setting`, or undefined. */
async function listenAddressProblem(setting: string, host: string): Promise<string | undefined> {
  if (isIP(host) !== 0) return isOwnAddress(host) ? undefined : `${setting} ${host} is not an address of this machine, so nothing can listen there: ${LISTEN_HINT}`;
  const addresses = await lookup(host, { all: true }).catch(() => undefined);
  if (!addresses || addresses.length === 0) return `${setting} ${host} is not a name this machine can resolve: ${LISTEN_HINT}`;
  if (addresses.some(({ address }) => isOwnAddress(address))) return undefined;
  return `${setting} ${host} names ${addresses.map(({ address }) => address).join(', ')}, not an address of this machine: ${LISTEN_HINT}`;
}

/** The listening settings as the environment gives them, for a start whose other settings did not read: checked all the same. */
export function listenSettings(env: NodeJS.ProcessEnv): Pick<Config, 'HEALTH_HOST' | 'HEALTH_PORT' | 'DEMO_HOST'> {
  const set = (value: string | undefined) => (value?.trim() ? value.trim() : undefined);
  return { HEALTH_HOST: set(env.HEALTH_HOST), HEALTH_PORT: set(env.HEALTH_PORT) === undefined ? undefined : 0, DEMO_HOST: set(env.DEMO_HOST) ?? '127.0.0.1' };
}

/** Every problem of HEALTH_HOST (when there is a health listener) and DEMO_HOST, as config.ts words a setting's. */
export async function listenAddressProblems(config: Pick<Config, 'HEALTH_HOST' | 'HEALTH_PORT' | 'DEMO_HOST'>): Promise<string[]> {
  const checks = [listenAddressProblem('DEMO_HOST', config.DEMO_HOST)];
  if (config.HEALTH_PORT !== undefined && config.HEALTH_HOST !== undefined) checks.push(listenAddressProblem('HEALTH_HOST', config.HEALTH_HOST));
  return (await Promise.all(checks)).filter((problem) => problem !== undefined);
}

/**
 * Whether another program listens on DEMO_PORT: the port is tried and let go at once. The demo's
 * pay page opens it only at the first demo checkout, so this is the one moment the owner reads.
 */
export async function demoPortTaken(config: Pick<Config, 'DEMO_PORT' | 'DEMO_HOST'>): Promise<string | undefined> {
  if (config.DEMO_PORT === 0) return undefined;
  const taken = await new Promise<boolean>((resolve) => {
    const probe = createServer();
    probe.once('error', (error: NodeJS.ErrnoException) => resolve(error.code === 'EADDRINUSE'));
    probe.listen(config.DEMO_PORT, config.DEMO_HOST, () => probe.close(() => resolve(false)));
  });
  return taken ? demoPortTakenMessage(config.DEMO_PORT, config.DEMO_HOST) : undefined;
}

export function demoPortTakenMessage(port: number, host: string): string {
  return `DEMO_PORT ${port} on ${host} is taken by another program, so the demo shop's Pay page cannot open: set DEMO_PORT to a free port (0 takes any) and restart`;
}

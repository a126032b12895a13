/**
 * Reads a V8 .cpuprofile (from BENCH_CPU_PROF=1) and prints where the time went: self time by
 * function and by package/file. Usage: node dist-bench/bench/profile-summary.js <file.cpuprofile> [top]
 */
import { readFileSync } from 'node:fs';
import { owner, selfTimes, type CpuProfile } from './cpu-profile.js';

const [file, topArg] = process.argv.slice(2);
if (!file) {
  process.stderr.write('usage: profile-summary.js <file.cpuprofile> [top]\n');
  process.exit(1);
}
const top = Number(topArg ?? 25);
const profile = JSON.parse(readFileSync(file, 'utf8')) as CpuProfile;
const byId = new Map(profile.nodes.map((node) => [node.id, node]));
const selfUs = selfTimes(profile);
const total = [...selfUs.values()].reduce((sum, value) => sum + value, 0);

const byFunction = new Map<string, number>();
const byOwner = new Map<string, number>();
for (const [id, us] of selfUs) {
  const node = byId.get(id);
  if (!node) continue;
  const { functionName, url, lineNumber } = node.callFrame;
  const where = !url && functionName.startsWith('(') ? functionName : owner(url);
  const key = `${functionName || '(anonymous)'}  ${where}${url ? `:${lineNumber + 1}` : ''}`;
  byFunction.set(key, (byFunction.get(key) ?? 0) + us);
  byOwner.set(where, (byOwner.get(where) ?? 0) + us);
}
const show = (title: string, map: Map<string, number>) => {
  process.stdout.write(`\n${title}\n`);
  for (const [key, us] of [...map.entries()].sort((a, b) => b[1] - a[1]).slice(0, top)) {
    process.stdout.write(`${(us / 1000).toFixed(0).padStart(7)} ms ${((us / total) * 100).toFixed(1).padStart(5)}%  ${key}\n`);
  }
};
process.stdout.write(`profile: ${(total / 1000).toFixed(0)} ms sampled over ${((profile.endTime - profile.startTime) / 1e6).toFixed(1)} s\n`);
show('self time by package / file', byOwner);
show('self time by function', byFunction);

// Inclusive time of the bot's own functions (dist/src, dist/commands): where a handler's time goes,
// counting everything it calls. A function on the stack twice (recursion) counts once per sample.
const parent = new Map<number, number>();
for (const node of profile.nodes) for (const child of node.children ?? []) parent.set(child, node.id);
const inclusive = new Map<string, number>();
for (const [id, us] of selfUs) {
  const seen = new Set<string>();
  for (let current: number | undefined = id; current !== undefined; current = parent.get(current)) {
    const node = byId.get(current);
    if (!node || !/\/dist\/(src|commands)\//.test(node.callFrame.url)) continue;
    const key = `${node.callFrame.functionName || '(anonymous)'}  ${owner(node.callFrame.url)}:${node.callFrame.lineNumber + 1}`;
    if (seen.has(key)) continue;
    seen.add(key);
    inclusive.set(key, (inclusive.get(key) ?? 0) + us);
  }
}
show("inclusive time of the bot's own functions", inclusive);

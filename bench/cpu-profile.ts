/* Reading V8 profiles: a .cpuprofile's self time, and a sampling heap profile's allocations, by function. */

export interface CallFrame {
  functionName: string;
  url: string;
  lineNumber: number;
}

export interface ProfileNode {
  id: number;
  callFrame: CallFrame;
  children?: number[];
}

export interface CpuProfile {
  nodes: ProfileNode[];
  samples: number[];
  timeDeltas: number[];
  startTime: number;
  endTime: number;
}

/** HeapProfiler.stopSampling's profile: a tree whose nodes carry the bytes allocated there (V8 scales the samples). */
export interface HeapNode {
  callFrame: CallFrame;
  selfSize: number;
  children: HeapNode[];
}

export interface Share {
  name: string;
  /** µs of self time, or bytes allocated. */
  amount: number;
  /** Of the whole profile, %. */
  percent: number;
}

/** The package or file a function belongs to: a node_modules package, node:…, or the bot's own dist/… file. */
export function owner(url: string): string {
  if (!url) return '(native/vm)';
  if (url.startsWith('node:')) return url.split('/')[0] ?? url;
  const modules = /node_modules\/((?:@[^/]+\/)?[^/]+)/.exec(url);
  if (modules) return modules[1]!;
  const own = /\/(dist(?:-bench)?\/.+)$/.exec(url);
  return own ? own[1]! : url;
}

/** Where a function is, in one line: its name, its package or file, its line. */
export function frameName({ functionName, url, lineNumber }: CallFrame): string {
  const where = !url && functionName.startsWith('(') ? functionName : owner(url);
  return `${functionName || '(anonymous)'}  ${where}${url ? `:${lineNumber + 1}` : ''}`;
}

/** Self time (µs) of each profile node that was sampled. */
export function selfTimes(profile: CpuProfile): Map<number, number> {
  const selfUs = new Map<number, number>();
  profile.samples.forEach((id, index) => selfUs.set(id, (selfUs.get(id) ?? 0) + (profile.timeDeltas[index] ?? 0)));
  return selfUs;
}

/** Adds up amounts by key, then the largest `top` with their share of the total. */
export function ranked(amounts: Iterable<[string, number]>, top: number): { total: number; top: Share[] } {
  const byKey = new Map<string, number>();
  let total = 0;
  for (const [key, amount] of amounts) {
    byKey.set(key, (byKey.get(key) ?? 0) + amount);
    total += amount;
  }
  const shares = [...byKey.entries()]
    .sort((a, b) => b[1] - a[1])
    .slice(0, top)
    .map(([name, amount]) => ({ name, amount, percent: total > 0 ? Math.round((amount / total) * 1000) / 10 : 0 }));
  return { total, top: shares };
}

/** The functions with the most self time; shares are of the busy time (the idle loop left out). */
export function topSelfTime(profile: CpuProfile, top: number): { totalUs: number; top: Share[] } {
  const byId = new Map(profile.nodes.map((node) => [node.id, node]));
  const entries: [string, number][] = [];
  for (const [id, us] of selfTimes(profile)) {
    const node = byId.get(id);
    if (node && node.callFrame.functionName !== '(idle)') entries.push([frameName(node.callFrame), us]);
  }
  const { total, top: shares } = ranked(entries, top);
  return { totalUs: total, top: shares };
}

/** The functions that allocated the most bytes (their own allocations, not their callees'). */
export function topAllocation(head: HeapNode, top: number): { totalBytes: number; top: Share[] } {
  const entries: [string, number][] = [];
  const stack = [head];
  while (stack.length > 0) {
    const node = stack.pop()!;
    if (node.selfSize > 0) entries.push([frameName(node.callFrame), node.selfSize]);
    stack.push(...node.children);
  }
  const { total, top: shares } = ranked(entries, top);
  return { totalBytes: total, top: shares };
}

/**
 * Where a heap snapshot's memory is (BENCH_HEAP=1 writes them): `node dist-bench/bench/heap-summary.js <file> [top]`.
 * Prints the total, the self size by kind (strings, code, arrays, …) and by constructor, and the
 * largest retained sizes among objects (dominator tree: what would be freed if that object went),
 * so a cache, a schema or a catalogue shows up under its own name with what it holds.
 */
import { readFileSync } from 'node:fs';

interface Snapshot {
  snapshot: { meta: { node_fields: string[]; node_types: [string[], ...unknown[]]; edge_fields: string[]; edge_types: [string[], ...unknown[]] }; node_count: number };
  nodes: number[];
  edges: number[];
  strings: string[];
}

const [file, topArg] = process.argv.slice(2);
if (!file) throw new Error('usage: heap-summary.js <file.heapsnapshot> [top]');
const top = Number(topArg ?? 15);
const heap = JSON.parse(readFileSync(file, 'utf8')) as Snapshot;
const { node_fields: nodeFields, node_types: nodeTypes, edge_fields: edgeFields, edge_types: edgeTypes } = heap.snapshot.meta;
const N = nodeFields.length;
const E = edgeFields.length;
const count = heap.nodes.length / N;
const typeAt = nodeFields.indexOf('type');
const nameAt = nodeFields.indexOf('name');
const sizeAt = nodeFields.indexOf('self_size');
const edgesAt = nodeFields.indexOf('edge_count');
const edgeTypeAt = edgeFields.indexOf('type');
const toAt = edgeFields.indexOf('to_node');
const weak = edgeTypes[0].indexOf('weak');
const kinds = nodeTypes[0];

const mb = (bytes: number) => `${(bytes / 1024 / 1024).toFixed(2)} MB`;
const kindOf = (node: number) => kinds[heap.nodes[node * N + typeAt]!] ?? '?';
const nameOf = (node: number) => heap.strings[heap.nodes[node * N + nameAt]!] ?? '?';
const selfOf = (node: number) => heap.nodes[node * N + sizeAt]!;
const label = (node: number) => (kindOf(node) === 'object' || kindOf(node) === 'closure' ? `${kindOf(node)} ${nameOf(node)}` : `(${kindOf(node)})`);

// Edges: the first edge of each node, then its children (weak edges retain nothing).
const firstEdge = new Uint32Array(count + 1);
for (let node = 0, edge = 0; node < count; node++) {
  firstEdge[node] = edge;
  edge += heap.nodes[node * N + edgesAt]! * E;
}
firstEdge[count] = heap.edges.length;
const children = (node: number, visit: (child: number) => void) => {
  for (let edge = firstEdge[node]!; edge < firstEdge[node + 1]!; edge += E) {
    if (heap.edges[edge + edgeTypeAt] === weak) continue;
    visit(heap.edges[edge + toAt]! / N);
  }
};

let total = 0;
const byKind = new Map<string, number>();
const byName = new Map<string, { size: number; count: number }>();
for (let node = 0; node < count; node++) {
  const size = selfOf(node);
  total += size;
  byKind.set(kindOf(node), (byKind.get(kindOf(node)) ?? 0) + size);
  const key = label(node);
  const entry = byName.get(key) ?? { size: 0, count: 0 };
  entry.size += size;
  entry.count += 1;
  byName.set(key, entry);
}

// Dominators (Cooper, Harvey, Kennedy) over a reverse post-order from the root (node 0).
const order: number[] = [];
const postIndex = new Int32Array(count).fill(-1);
const seen = new Uint8Array(count);
const stack: [number, number][] = [[0, firstEdge[0]!]];
seen[0] = 1;
while (stack.length > 0) {
  const frame = stack[stack.length - 1]!;
  const [node, edge] = frame;
  if (edge >= firstEdge[node + 1]!) {
    stack.pop();
    postIndex[node] = order.length;
    order.push(node);
    continue;
  }
  frame[1] = edge + E;
  if (heap.edges[edge + edgeTypeAt] === weak) continue;
  const child = heap.edges[edge + toAt]! / N;
  if (!seen[child]) {
    seen[child] = 1;
    stack.push([child, firstEdge[child]!]);
  }
}
const predecessors: number[][] = Array.from({ length: count }, () => []);
for (const node of order) children(node, (child) => predecessors[child]!.push(node));
const dominator = new Int32Array(count).fill(-1);
dominator[0] = 0;
const intersect = (a: number, b: number) => {
  while (a !== b) {
    while (postIndex[a]! < postIndex[b]!) a = dominator[a]!;
    while (postIndex[b]! < postIndex[a]!) b = dominator[b]!;
  }
  return a;
};
for (let changed = true; changed; ) {
  changed = false;
  for (let k = order.length - 2; k >= 0; k--) {
    const node = order[k]!;
    let next = -1;
    for (const pred of predecessors[node]!) {
      if (dominator[pred] === -1) continue;
      next = next === -1 ? pred : intersect(pred, next);
    }
    if (next !== -1 && dominator[node] !== next) {
      dominator[node] = next;
      changed = true;
    }
  }
}
const retained = new Float64Array(count);
for (const node of order) retained[node] = retained[node]! + selfOf(node);
for (const node of order) if (node !== 0 && dominator[node]! >= 0) retained[dominator[node]!] = retained[dominator[node]!]! + retained[node]!;

const lines = [`${file}`, `total self size ${mb(total)} in ${count} nodes`, '', 'by kind:'];
for (const [kind, size] of [...byKind].sort((a, b) => b[1] - a[1]).slice(0, 8)) lines.push(`  ${mb(size).padStart(10)}  ${kind}`);
lines.push('', `by constructor (self size, top ${top}):`);
for (const [name, { size, count: n }] of [...byName].sort((a, b) => b[1].size - a[1].size).slice(0, top)) lines.push(`  ${mb(size).padStart(10)}  ${n.toString().padStart(7)} × ${name.slice(0, 90)}`);
lines.push('', `largest retained sizes (objects and closures, top ${top}):`);
const candidates = order.filter((node) => (kindOf(node) === 'object' || kindOf(node) === 'closure') && nameOf(node) !== '' && !nameOf(node).startsWith('(')).sort((a, b) => retained[b]! - retained[a]!);
for (const node of candidates.slice(0, top)) lines.push(`  ${mb(retained[node]!).padStart(10)}  ${label(node).slice(0, 100)}`);
process.stdout.write(`${lines.join('\n')}\n`);

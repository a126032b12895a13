/**
 * The search matcher's micro-benchmark: builds a 5 000-variant offer (4 servers, each with 25
 * products of 10 variants and a 1 000-variant coin range), indexes it, then times every keystroke
 * of a set of queries members type (each prefix of "vip 30", "1000 monet", "zloto", a typo…),
 * many rounds over, as autocomplete would run them. Prints p50/p99/max per keystroke, as typed
 * (each query from its first letter) and cold (every keystroke with nothing remembered).
 *
 * Run alone with `node dist-bench/bench/search-bench.js` (after `tsc -p tsconfig.bench.json`), or as
 * a step of `npm run bench`. Prints a JSON line last, which search-phase.ts reads.
 */
import { pathToFileURL } from 'node:url';
import { forgetScores, productPart, search, variantPart, type SearchPart } from '../src/services/search.js';
import { serverOfferSchema, serverSchema, variantSchema, type Server, type ServerOffer, type Variant } from '../src/spaceis/schemas.js';
import { summarize, type Summary } from './stats.js';

const SERVERS = ['Survival', 'SkyBlock', 'Bedwars', 'Mroczne Ziemie'];
const RANGE_SIZE = 1000;
const PRODUCT_NAMES = [
  'VIP', 'SVIP', 'MVIP', 'Legenda', 'Ranga Łowca', 'Klucz Epicki', 'Klucz Świąteczny', 'Klucz Złoty', 'Skrzynia Smoka', 'Miecz Żywiołów',
  'Kilof z Netherytu', 'Zestaw Początkującego', 'Zestaw Wojownika', 'Złoto', 'Diamenty', 'Unban', 'Unmute', 'Zwierzak Lis', 'Kosmetyk Skrzydła',
  'Peleryna Feniksa', 'Mikstura Siły', 'Działka 100x100', 'Turbo Drop', 'Fly na 7 dni', 'Nick Kolorowy',
];
const VARIANT_NAMES = ['1 dzień', '3 dni', '7 dni', '14 dni', '30 dni', '60 dni', '90 dni', '180 dni', 'Na zawsze', 'Edycja limitowana'];
export const QUERIES = ['vip 30', 'vp 30', '1000 monet', 'monet 1 000', '500', 'klucz', 'zloto', 'kulcz swiateczny', 'miecz zywiolow', 'lowca na zawsze', 'bedwars svip 90', 'xyzzy'];

function price(amount: number) {
  return { amount, name: 'Przelewy24', method: 'przelewy24', type: 'transfer' };
}

interface Built {
  parts: SearchPart[];
  variants: number;
  buildMs: number;
}

/** The offer as the cache would hold it (parsed by the store schemas), indexed as autocomplete indexes it. */
export function buildOffer(): Built {
  const offers: { server: Server; offer: ServerOffer; variants: Map<string, Variant[]> }[] = [];
  let count = 0;
  for (const [s, serverName] of SERVERS.entries()) {
    const server = serverSchema.parse({ id: `srv-${s}`, name: serverName, slug: serverName.toLowerCase() });
    const variants = new Map<string, Variant[]>();
    const products = PRODUCT_NAMES.map((name, p) => {
      const id = `prd-${s}-${p}`;
      variants.set(id, VARIANT_NAMES.map((variant, v) => variantSchema.parse({ id: `var-${s}-${p}-${v}`, name: variant, prices: [price(5 + p + v)] })));
      return { id, name };
    });
    const rangeId = `prd-${s}-range`;
    variants.set(
      rangeId,
      Array.from({ length: RANGE_SIZE }, (_, index) => variantSchema.parse({ id: `rng-${s}-${index}`, name: `${(index + 1) * 5} monet`, prices: [price((index + 1) * 0.05)] })),
    );
    const offer = serverOfferSchema.parse({ categories: [{ id: `cat-${s}-0`, name: 'Rangi i przedmioty', products }, { id: `cat-${s}-1`, name: 'Monety', products: [{ id: rangeId, name: 'Pakiet monet' }] }] });
    offers.push({ server, offer, variants });
    for (const list of variants.values()) count += list.length;
  }
  const started = performance.now();
  const parts: SearchPart[] = [];
  for (const { server, offer, variants } of offers) {
    parts.push(productPart(server, offer));
    for (const category of offer.categories) {
      for (const product of category.products) parts.push(variantPart({ server, category, product }, variants.get(product.id)!));
    }
  }
  return { parts, variants: count, buildMs: performance.now() - started };
}

export interface SearchBenchResult {
  variants: number;
  parts: number;
  indexBuildMs: number;
  keystrokes: number;
  /** Each keystroke after the previous one of the same query, as a member types (earlier words' scores remembered). */
  typingMs: Summary;
  /** Each keystroke with nothing remembered: the worst case, e.g. a query pasted whole. */
  coldMs: Summary;
}

export function runSearchBench(rounds = 40): SearchBenchResult {
  const built = buildOffer();
  const keystrokes = QUERIES.flatMap((query) => Array.from({ length: query.length }, (_, index) => query.slice(0, index + 1)));
  const forget = () => built.parts.forEach(forgetScores);
  const time = (typed: string, into: number[]) => {
    const started = performance.now();
    search(built.parts, typed, { limit: 25, requireAll: true });
    into.push(performance.now() - started);
  };
  // Warm-up: let V8 optimize the matcher before timing, as a running bot would have.
  for (let round = 0; round < 5; round++) for (const typed of keystrokes) search(built.parts, typed, { limit: 25, requireAll: true });
  const typing: number[] = [];
  const cold: number[] = [];
  for (let round = 0; round < rounds; round++) {
    for (const query of QUERIES) {
      // Another member typing this query: nothing of it is remembered when they start.
      forget();
      for (let length = 1; length <= query.length; length++) time(query.slice(0, length), typing);
    }
    for (const typed of keystrokes) {
      forget();
      time(typed, cold);
    }
  }
  return {
    variants: built.variants,
    parts: built.parts.length,
    indexBuildMs: built.buildMs,
    keystrokes: typing.length,
    typingMs: summarize(typing),
    coldMs: summarize(cold),
  };
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  const result = runSearchBench(Number(process.env.BENCH_SEARCH_ROUNDS) || 40);
  const line = (name: string, t: Summary) => `${name}: p50 ${t.median.toFixed(3)} ms, p99 ${t.p99.toFixed(3)} ms, max ${t.max.toFixed(3)} ms`;
  process.stdout.write(
    `search matcher: ${result.variants} variants in ${result.parts} parts, index built in ${result.indexBuildMs.toFixed(1)} ms; ${result.keystrokes} keystrokes each way\n` +
      `  ${line('typing (per keystroke)', result.typingMs)}\n  ${line('cold (nothing remembered)', result.coldMs)}\n`,
  );
  process.stdout.write(`${JSON.stringify(result)}\n`);
}

// Property: random documents over every attribute kind (several batches, so several segments), a random
// filter, with or without MATCH, random group keys (one or two; int, bigint, float, bool, timestamp,
// string, MVA), aggregates and WITHIN GROUP ORDER BY: the groups folded in the WASM core equal the same
// query folded on the host (group-segment.ts), row for row, and both equal a straightforward evaluation.
// Float values are dyadic, so every sum is exact in any order.
import { collation } from '../../../../src/util/collation.js';
import fc from 'fast-check';
import { afterEach, describe, expect, it } from 'vitest';
import { coreFoldSwitch } from '../../../../src/engine/group/core-fold.js';
import { useTempEngine } from '../../../helpers/temp-engine.js';

interface Doc {
  id: number; word: 'red' | 'blue'; cat: number; big: bigint; price: number; ok: number; ts: number;
  brand: string; tags: number[]; tags64: bigint[];
}

const t = useTempEngine('core-fold-prop');
afterEach(() => { coreFoldSwitch.enabled = true; });

const docArb = fc.record({
  word: fc.constantFrom('red', 'blue') as fc.Arbitrary<'red' | 'blue'>,
  // small values take the core's direct index, large ones its hash
  cat: fc.oneof(fc.integer({ min: 0, max: 4 }), fc.integer({ min: 70_000, max: 70_002 })),
  big: fc.constantFrom(-3n, 0n, 5n, 2n ** 40n, -(2n ** 40n)),
  price: fc.constantFrom(0, 1.5, 2.25, -3, 100.125, -0.5),
  ok: fc.integer({ min: 0, max: 1 }),
  ts: fc.constantFrom(0, 1_700_000_000, 1_700_086_400),
  brand: fc.constantFrom('a', 'b', 'B', '', 'é'),
  tags: fc.uniqueArray(fc.integer({ min: 1, max: 4 }), { maxLength: 3 }),
  tags64: fc.uniqueArray(fc.constantFrom(1n, 2n ** 33n, -7n), { maxLength: 2 }),
});

// ck: an expression alias (cat*2+1), computed by the core's formula
const KEYS = ['cat', 'big', 'price', 'ok', 'ts', 'brand', 'tags', 'tags64', 'ck'] as const;
type Key = (typeof KEYS)[number];
const ARGS: Record<string, (d: Doc) => number> = {
  cat: (d) => d.cat, big: (d) => Number(d.big), price: (d) => d.price, ts: (d) => d.ts,
  'price*2': (d) => d.price * 2, 'cat*3': (d) => d.cat * 3,
};
const WITHIN = [null, 'price', 'cat', 'brand', 'big', 'id'] as const;

const keyValues = (d: Doc, k: Key): unknown[] => (k === 'ck' ? [d.cat * 2 + 1] : k === 'tags' || k === 'tags64' ? d[k] : [d[k]]);
const text = (v: unknown): string => (Array.isArray(v) ? v.map(text).join(',') : String(v));
// brand is a STRING: it groups and orders under searchd's default collation, libc_ci ('b' and 'B' are one group)
const libcCi = collation('libc_ci');
const keyText = (k: Key, v: unknown): string => (k === 'brand' ? libcCi.fold(String(v)) : text(v));

/** The groups of `docs` by `keys`: key text -> members in insertion order. */
function expected(docs: Doc[], keys: Key[]): Map<string, Doc[]> {
  const out = new Map<string, Doc[]>();
  for (const d of docs) {
    let combos: unknown[][] = [[]];
    for (const k of keys) combos = combos.flatMap((c) => keyValues(d, k).map((v) => [...c, v]));
    for (const c of combos) {
      const id = c.map((v, i) => keyText(keys[i]!, v)).join('|');
      out.set(id, [...(out.get(id) ?? []), d]);
    }
  }
  return out;
}

function better(a: Doc, b: Doc, within: (typeof WITHIN)[number], desc: boolean): boolean {
  if (!within) return a.id < b.id;
  const x = a[within], y = b[within];
  const c = within === 'brand' ? libcCi.compare(x as string, y as string) : x === y ? 0 : x < y ? -1 : 1;
  if (c === 0) return a.id < b.id;
  return desc ? c > 0 : c < 0;
}

describe('core fold vs host fold vs a plain evaluation', () => {
  it('groups, aggregates, representative rows and total_found agree', async () => {
    await fc.assert(fc.asyncProperty(
      fc.array(docArb, { minLength: 1, maxLength: 40 }), fc.integer({ min: 1, max: 4 }),
      fc.uniqueArray(fc.constantFrom(...KEYS), { minLength: 1, maxLength: 2 }), fc.constantFrom(...Object.keys(ARGS)),
      fc.constantFrom(...WITHIN), fc.boolean(), fc.boolean(), fc.constantFrom(null, -5, 0, 2), fc.integer({ min: 0, max: 5 }),
      async (raw, batches, keys, arg, within, desc, match, minPrice, deleteEvery) => {
        await t.exec('drop table if exists g');
        await t.exec('create table g (title text, cat uint, big bigint, price float, ok bool, ts timestamp, brand string, tags multi, tags64 multi64)');
        const docs: Doc[] = raw.map((d, i) => ({ ...d, id: i + 1 }));
        const per = Math.ceil(docs.length / batches);
        for (let i = 0; i < docs.length; i += per) {
          const values = docs.slice(i, i + per).map((d) => `(${d.id}, '${d.word}', ${d.cat}, ${d.big}, ${d.price}, ${d.ok}, ${d.ts}, '${d.brand}', (${d.tags.join(',')}), (${d.tags64.join(',')}))`);
          await t.exec(`insert into g (id, title, cat, big, price, ok, ts, brand, tags, tags64) values ${values.join(', ')}`);
        }
        // some rows deleted (a full scan without filters folds the live rows straight)
        const deleted = new Set(deleteEvery ? docs.filter((d) => d.id % deleteEvery === 0).map((d) => d.id) : []);
        if (deleted.size) await t.exec(`delete from g where id in (${[...deleted].join(',')})`);
        const conds = [...(minPrice === null ? [] : [`price >= ${minPrice}`]), ...(match ? ["match('red')"] : [])];
        const where = conds.length ? ` where ${conds.join(' and ')}` : '';
        const order = within ? ` within group order by ${within} ${desc ? 'desc' : 'asc'}` : '';
        const items = keys.map((k) => (k === 'ck' ? 'cat*2+1 as ck' : k));
        const sql = `select ${items.join(', ')}, id, count(*), sum(${arg}), min(${arg}), max(${arg}), avg(${arg}) from g${where} group by ${keys.join(', ')}${order} order by ${keys.map((k) => `${k} asc`).join(', ')} limit 1000 option max_matches=1000`;
        const core = await t.rows(sql);
        const coreMeta = await t.rows("show meta like 'total_found'");
        coreFoldSwitch.enabled = false;
        expect(await t.rows(sql), sql).toEqual(core);
        expect(await t.rows("show meta like 'total_found'")).toEqual(coreMeta);
        coreFoldSwitch.enabled = true;

        const matching = docs.filter((d) => !deleted.has(d.id) && (minPrice === null || d.price >= minPrice) && (!match || d.word === 'red'));
        const want = expected(matching, keys);
        expect(coreMeta).toEqual([['total_found', String(want.size)]]);
        const got = new Map(core.map((r) => [r.slice(0, keys.length).map((v, i) => keyText(keys[i]!, v)).join('|'), r]));
        expect([...got.keys()].sort(), sql).toEqual([...want.keys()].sort());
        for (const [k, members] of want) {
          const values = members.map(ARGS[arg]!);
          const sum = values.reduce((a, b) => a + b, 0);
          const rep = members.reduce((a, b) => (better(b, a, within, desc) ? b : a));
          const row = got.get(k)!;
          const [id, count, s, mn, mx, avg] = row.slice(keys.length);
          expect([Number(id), Number(count), Number(s), Number(mn), Number(mx), Number(avg)], `${sql} group ${k}`)
            .toEqual([rep.id, members.length, sum, Math.min(...values), Math.max(...values), sum / members.length]);
          // a string key shows the representative's own value
          const b = keys.indexOf('brand');
          if (b >= 0) expect(row[b], `${sql} group ${k}`).toBe(rep.brand);
        }
      },
    ), { numRuns: 60 });
  }, 240_000);
});

// Property: random documents (written in several batches, so several segments), a random filter and a
// random grouping; the engine's groups, aggregates and each group's WITHIN GROUP ORDER BY row equal a
// straightforward evaluation of the same rows.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { useTempEngine } from '../../../helpers/temp-engine.js';

interface Doc { id: number; cat: number; brand: string; price: number; tags: number[]; word: 'red' | 'blue' }

const t = useTempEngine('group-prop');

const docArb = fc.record({
  cat: fc.integer({ min: 0, max: 4 }),
  brand: fc.constantFrom('a', 'b', 'c'),
  price: fc.integer({ min: 0, max: 50 }),
  tags: fc.uniqueArray(fc.integer({ min: 1, max: 4 }), { maxLength: 3 }),
  word: fc.constantFrom('red', 'blue') as fc.Arbitrary<'red' | 'blue'>,
});

const KEYS = ['cat', 'brand', 'tags'] as const;

function expected(docs: Doc[], key: (typeof KEYS)[number], minPrice: number, match: boolean): Map<string, number[]> {
  const out = new Map<string, number[]>();
  for (const d of docs) {
    if (d.price < minPrice || (match && d.word !== 'red')) continue;
    const values = key === 'tags' ? d.tags : [d[key]];
    for (const v of values) {
      const k = String(v);
      out.set(k, [...(out.get(k) ?? []), d.price]);
    }
  }
  return out;
}

/** Recreates table g with the raw documents numbered from 1, inserted in `batches` INSERTs (so as many segments). */
async function loadDocs(raw: Array<Omit<Doc, 'id'>>, batches = 1): Promise<Doc[]> {
  await t.exec('drop table if exists g');
  await t.exec('create table g (title text, cat uint, brand string, price uint, tags multi)');
  const docs: Doc[] = raw.map((d, i) => ({ ...d, id: i + 1 }));
  const per = Math.ceil(docs.length / batches);
  for (let i = 0; i < docs.length; i += per) {
    const values = docs.slice(i, i + per).map((d) => `(${d.id}, '${d.word}', ${d.cat}, '${d.brand}', ${d.price}, (${d.tags.join(',')}))`);
    await t.exec(`insert into g (id, title, cat, brand, price, tags) values ${values.join(', ')}`);
  }
  return docs;
}

describe('GROUP BY vs a plain evaluation', () => {
  it('count, sum, min, max, count distinct per group', async () => {
    await fc.assert(fc.asyncProperty(
      fc.array(docArb, { minLength: 1, maxLength: 40 }), fc.constantFrom(...KEYS), fc.integer({ min: 0, max: 50 }), fc.boolean(),
      fc.integer({ min: 1, max: 4 }),
      async (raw, key, minPrice, match, batches) => {
        const docs = await loadDocs(raw, batches);
        const where = [`price >= ${minPrice}`, ...(match ? ["match('red')"] : [])].join(' and ');
        const rows = await t.rows(`select groupby(), count(*), sum(price), min(price), max(price), count(distinct price) from g where ${where} group by ${key} order by groupby() asc limit 1000`);
        const want = expected(docs, key, minPrice, match);
        const got = new Map(rows.map((r) => [String(r[0]), r.slice(1).map(Number)]));
        expect([...got.keys()].sort()).toEqual([...want.keys()].sort());
        for (const [k, prices] of want) {
          expect(got.get(k), `group ${k}`).toEqual([
            prices.length, prices.reduce((a, b) => a + b, 0), Math.min(...prices), Math.max(...prices), new Set(prices).size,
          ]);
        }
        // WITHIN GROUP ORDER BY price DESC: each group's row has the highest price, ties the first inserted
        const reps = await t.rows(`select groupby(), id from g where ${where} group by ${key} within group order by price desc limit 1000`);
        for (const [k, id] of reps) {
          const members = docs.filter((d) => d.price >= minPrice && (!match || d.word === 'red') && (key === 'tags' ? d.tags : [d[key]]).map(String).includes(String(k)));
          const best = members.reduce((a, b) => (b.price > a.price ? b : a));
          expect(Number(id), `group ${String(k)}`).toBe(best.id);
        }
        const meta = await t.rows("show meta like 'total_found'");
        expect(meta).toEqual([['total_found', String(want.size)]]);
      },
    ), { numRuns: 40 });
  }, 120_000);

  it('limited GROUP_CONCAT, percentiles, COUNT(DISTINCT) of a string, and a facet excluding its own filter', async () => {
    await fc.assert(fc.asyncProperty(
      fc.array(docArb, { minLength: 1, maxLength: 30 }), fc.constantFrom('a', 'b', 'c'), fc.integer({ min: 0, max: 50 }),
      async (raw, brand, minPrice) => {
        const docs = await loadDocs(raw);
        const rows = await t.rows(`select cat, group_concat(price order by price desc, id asc separator ' ' limit 2), percentiles(price, {values='50'}), count(distinct brand) from g where price >= ${minPrice} group by cat order by cat asc`);
        const kept = docs.filter((d) => d.price >= minPrice);
        const cats = [...new Set(kept.map((d) => d.cat))].sort((a, b) => a - b);
        expect(rows.map((r) => Number(r[0]))).toEqual(cats);
        rows.forEach((r) => {
          const members = kept.filter((d) => d.cat === Number(r[0]));
          const prices = members.map((d) => d.price).sort((a, b) => a - b);
          const top = [...members].sort((a, b) => b.price - a.price || a.id - b.id).slice(0, 2).map((d) => String(d.price)).join(' ');
          expect(String(r[1])).toBe(top);
          expect(String(r[2])).toBe(`{"50":${prices[Math.max(1, Math.ceil(prices.length / 2)) - 1]}}`);
          expect(Number(r[3])).toBe(new Set(members.map((d) => d.brand)).size);
        });
        // EXCLUDE FILTERS brand: the brand facet counts the price-filtered rows of every brand
        const out = await t.exec(`select id from g where brand = '${brand}' and price >= ${minPrice} facet brand exclude filters brand order by brand asc`);
        const sets = out.map((r) => (r.kind === 'rows' ? r.rows.map((row) => row.map(String)) : []));
        const counts = new Map<string, number>();
        for (const d of kept) counts.set(d.brand, (counts.get(d.brand) ?? 0) + 1);
        expect(sets[1]).toEqual([...counts].sort(([a], [b]) => (a < b ? -1 : 1)).map(([b, n]) => [b, String(n)]));
      },
    ), { numRuns: 30 });
  }, 120_000);

  it('FACET MODE max (broad counts, status) and ALL FILTERS ZEROES (zero-count broad buckets)', async () => {
    await fc.assert(fc.asyncProperty(
      fc.array(docArb, { minLength: 1, maxLength: 30 }), fc.constantFrom('a', 'b', 'c'), fc.integer({ min: 0, max: 50 }),
      async (raw, brand, minPrice) => {
        const docs = await loadDocs(raw);
        const out = await t.exec(`select id from g where match('red') and brand = '${brand}' and price >= ${minPrice} facet brand mode max order by brand asc facet cat all filters zeroes mode max order by cat asc`);
        const sets = out.map((r) => (r.kind === 'rows' ? r.rows.map((row) => row.map(String)) : []));
        const broad = docs.filter((d) => d.word === 'red');
        const strict = broad.filter((d) => d.brand === brand && d.price >= minPrice);
        const count = (ds: Doc[], key: (d: Doc) => string): Map<string, number> => {
          const m = new Map<string, number>();
          for (const d of ds) m.set(key(d), (m.get(key(d)) ?? 0) + 1);
          return m;
        };
        const sorted = <T>(m: Map<string, T>, num: boolean): Array<[string, T]> => [...m].sort(([a], [b]) => (num ? Number(a) - Number(b) : a < b ? -1 : 1));
        // max: every brand of the MATCH alone; the filtered brand selected, its siblings available
        expect(sets[1]).toEqual(sorted(count(broad, (d) => d.brand), false).map(([b, n]) => [b, String(n), b === brand ? 'selected' : 'available']));
        // ALL FILTERS ZEROES: counts under all filters, the broad query's other cats at 0 and unavailable
        const visible = count(strict, (d) => String(d.cat));
        const cats = new Map([...count(broad, (d) => String(d.cat)).keys()].map((c) => [c, visible.get(c) ?? 0]));
        expect(sets[2]).toEqual(sorted(cats, true).map(([c, n]) => [c, String(n), n ? 'available' : 'unavailable']));
      },
    ), { numRuns: 30 });
  }, 120_000);
});

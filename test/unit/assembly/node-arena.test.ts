// The plan arena (assembly/plan/node.ts): arenaBytes() sizes it and take() carves node records, child
// arrays and cursors out of it by one rounding rule, so every node shape fits: a wide OR (a child
// array not a multiple of 16 bytes), a phrase with its pair guide's cursor, a wildcard's merged list,
// nesting. A size rule out of step once overwrote the heap after the arena and every query of a
// large table failed "out of memory in the search core"; take() now traps at the arena's end, so
// here (checked with NODE_BYTES 124 and the old raw sum: every query fails) many queries of every
// shape over a few thousand rows must give the rows a plain scan of the texts gives.
import { describe, expect, it } from 'vitest';
import { Rng } from '../../fuzz/rng.js';
import { useTempEngine } from '../../helpers/temp-engine.js';

const VOCAB = Array.from({ length: 48 }, (_, i) => `w${String(i).padStart(2, '0')}`);
const random = new Rng(11);
// skewed: the first words in most rows (postings of many blocks, pairs of them), the last ones rare
const skewed = () => VOCAB[Math.floor(VOCAB.length * random.next() * random.next())];
const texts = new Map<number, string[]>();
for (let id = 1; id <= 4000; id++) texts.set(id, Array.from({ length: 4 + Math.floor(random.next() * 20) }, skewed));

const t = useTempEngine('node-arena', async (t) => {
  // bigram_index='all': every adjacent pair has a pair term, so each phrase gets a guide cursor
  await t.exec("create table t (body text) bigram_index='all' min_prefix_len='2'");
  const ids = [...texts.keys()];
  for (let i = 0; i < ids.length; i += 500) {
    const values = ids.slice(i, i + 500).map((id) => `(${id}, '${texts.get(id)!.join(' ')}')`);
    const out = (await t.exec(`insert into t (id, body) values ${values.join(',')}`)).at(-1)!;
    if (out.kind === 'error') throw new Error(out.message);
  }
});

type Pred = (ws: string[]) => boolean;
const has = (w: string): Pred => (ws) => ws.includes(w);
const all = (...ps: Pred[]): Pred => (ws) => ps.every((p) => p(ws));
const any = (...ps: Pred[]): Pred => (ws) => ps.some((p) => p(ws));
const not = (p: Pred): Pred => (ws) => !p(ws);
const phrase = (...words: string[]): Pred => (ws) => ws.some((_, i) => words.every((w, j) => ws[i + j] === w));

const wide = VOCAB.slice(5, 42); // 37 children: a 148-byte child array
const cases: [string, Pred][] = [
  ['w00', has('w00')],
  ['w03 w01 w07', all(has('w03'), has('w01'), has('w07'))],
  [wide.join(' | '), any(...wide.map(has))],
  ['"w00 w01 w02"', phrase('w00', 'w01', 'w02')],
  ['"w02 w00"', phrase('w02', 'w00')],
  ['w1*', any(...VOCAB.filter((w) => w.startsWith('w1')).map(has))],
  ['(w04 | "w00 w03") (w1* | w20) -w02', all(any(has('w04'), phrase('w00', 'w03')), any(...VOCAB.filter((w) => w.startsWith('w1') || w === 'w20').map(has)), not(has('w02')))],
  [`(${wide.slice(0, 19).join(' | ')}) "w01 w00" w0*`, all(any(...wide.slice(0, 19).map(has)), phrase('w01', 'w00'), any(...VOCAB.filter((w) => w.startsWith('w0')).map(has)))],
];

describe('the plan arena', () => {
  it('holds every node shape: each query gives the rows a scan of the texts gives, again and again', async () => {
    for (let round = 0; round < 3; round++) {
      for (const [query, pred] of cases) {
        const rows = await t.rows(`select id from t where match('${query}') order by id asc limit 5000 option max_matches=5000`);
        const want = [...texts].filter(([, ws]) => pred(ws)).map(([id]) => BigInt(id));
        expect(want.length, query).toBeGreaterThan(0);
        expect(rows.map((r) => r[0]), query).toEqual(want);
      }
    }
  }, 120_000);
});

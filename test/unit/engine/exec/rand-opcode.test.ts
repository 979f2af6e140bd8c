// The core's RAND_ID opcode over a real table's segments (assembly/rank/rand-id.ts): RAND() alone (exprColumn's
// direct column) and inside a longer formula (the interpreter's opcode) give each row its id hashed with the seed,
// a float in [0, 1), as the select list's RAND() computes it on the host (src/engine/expr/rand.ts).
import { describe, expect, it } from 'vitest';
import { exprColumnValues } from '../../../../src/index/expr-column.js';
import { X, fbits } from '../../../../src/index/rank-expr/rank-expr-words.js';
import { randOfId } from '../../../../src/engine/expr/rand.js';
import type { Table } from '../../../../src/engine/table.js';
import { useTempEngine } from '../../../helpers/temp-engine.js';

const t = useTempEngine('rand-opcode', async (t) => {
  await t.exec('create table q (title text, a int)');
  const ids = [1n, 2n, 77n, 2n ** 32n + 3n, 2n ** 50n + 9n, 2n ** 63n - 1n];
  await t.exec(`insert into q (id, title, a) values ${ids.map((id) => `(${id}, 'x', 1)`).join(', ')}`);
  await t.exec('insert into q (id, title, a) values (500, \'y\', 2)');
});

const tableOf = (name: string) => (t.engine as unknown as { ctx: { catalog: { get(n: string): Table } } }).ctx.catalog.get(name);

describe('RAND_ID in the core', () => {
  it('alone and inside a formula, every row of every segment is its id hashed with the seed', () => {
    const segs = tableOf('q').index.segments;
    expect(segs.length).toBeGreaterThan(0);
    let rows = 0;
    for (const seed of [0, 12345, 0xffffffff]) {
      for (const seg of segs) {
        const alone = exprColumnValues(seg, [X.RAND_ID, seed]);
        const scaled = exprColumnValues(seg, [X.RAND_ID, seed, X.CONST_F, fbits(10), X.MUL_F]);
        for (let row = 0; row < seg.rows; row++) {
          const want = randOfId(seed, seg.docId(row));
          expect(alone[row]).toBe(want);
          expect(want).toBeGreaterThanOrEqual(0);
          expect(want).toBeLessThan(1);
          // the interpreter's float ops run in f32, as Manticore's Eval
          expect(scaled[row]).toBe(Math.fround(Math.fround(want) * 10));
          rows++;
        }
      }
    }
    expect(rows).toBe(3 * 7);
  });
});

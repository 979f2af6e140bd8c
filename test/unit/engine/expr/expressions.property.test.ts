// Property: random rows, random numeric expressions (operators, IF, MIN/MAX, ABS, CEIL, FLOOR, SQRT, LN)
// over uint, bigint and float attributes; each row's value from the engine equals the reference
// evaluator's (test/reference/expr-eval.ts), type included (int vs float text).
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { useTempEngine } from '../../../helpers/temp-engine.js';
import { cellToSqlText } from '../../../../src/engine/values/cell-format.js';
import type { RowsResult } from '../../../../src/engine/index.js';
import { refEval, refText, type RefExpr, type RefRow } from '../../../reference/expr-eval.js';

const t = useTempEngine('expr-prop', async (t) => {
  await t.exec('create table e (title text, u uint, b bigint, f float)');
});

const leaf: fc.Arbitrary<RefExpr> = fc.oneof(
  fc.constantFrom('u', 'b', 'f').map((name) => ({ k: 'col', name }) as RefExpr),
  fc.integer({ min: -50, max: 3000000000 }).map((n) => ({ k: 'num', text: String(n) }) as RefExpr),
  fc.constantFrom('0', '2', '7', '2.5', '0.25').map((text) => ({ k: 'num', text }) as RefExpr),
);

const { expr } = fc.letrec<{ expr: RefExpr }>((tie) => ({
  expr: fc.oneof(
    { depthSize: 'small', withCrossShrink: true },
    leaf,
    fc.record({ k: fc.constant('bin'), op: fc.constantFrom('+', '-', '*', '/', '=', '<', '>=', '!=', 'and', 'or'), a: tie('expr'), b: tie('expr') }) as fc.Arbitrary<RefExpr>,
    fc.record({ k: fc.constant('fn'), name: fc.constantFrom('abs', 'ceil', 'floor', 'sqrt', 'ln'), args: fc.tuple(tie('expr')) }) as fc.Arbitrary<RefExpr>,
    fc.record({ k: fc.constant('fn'), name: fc.constantFrom('min', 'max'), args: fc.tuple(tie('expr'), tie('expr')) }) as fc.Arbitrary<RefExpr>,
    fc.record({ k: fc.constant('fn'), name: fc.constant('if'), args: fc.tuple(tie('expr'), tie('expr'), tie('expr')) }) as fc.Arbitrary<RefExpr>,
  ),
}));

/** Integer-only operators (DIV, %) over integer-only subtrees. */
const intLeaf: fc.Arbitrary<RefExpr> = fc.oneof(
  fc.constantFrom('u', 'b').map((name) => ({ k: 'col', name }) as RefExpr),
  fc.integer({ min: -9, max: 9 }).map((n) => ({ k: 'num', text: String(n) }) as RefExpr),
);
const intExpr: fc.Arbitrary<RefExpr> = fc.record({ k: fc.constant('bin'), op: fc.constantFrom('div', '%', '*', '-'), a: intLeaf, b: intLeaf }) as fc.Arbitrary<RefExpr>;

const rowArb = fc.record({
  u: fc.integer({ min: 0, max: 4294967295 }),
  b: fc.bigInt({ min: -(2n ** 62n), max: 2n ** 62n }),
  f: fc.integer({ min: -100000, max: 100000 }).map((n) => Math.fround(n / 64)),
});

/** Only comparison/boolean operators whose operands are integers are valid AND/OR operands (Manticore). */
function valid(e: RefExpr, row: RefRow): boolean {
  if (e.k === 'bin' && (e.op === 'and' || e.op === 'or')) {
    if (refEval(e.a, row).t === 'float' || refEval(e.b, row).t === 'float') return false;
  }
  if (e.k === 'bin') return valid(e.a, row) && valid(e.b, row);
  if (e.k === 'fn') return e.args.every((a) => valid(a, row));
  return true;
}

describe('expressions vs a reference evaluation', () => {
  it('each row of SELECT id, <expr> equals the reference value', async () => {
    let table = 0;
    let checked = 0;
    await fc.assert(fc.asyncProperty(fc.array(rowArb, { minLength: 1, maxLength: 6 }), fc.oneof(expr, intExpr), async (rows, e) => {
      const name = `e${table++}`;
      await t.exec(`create table ${name} (title text, u uint, b bigint, f float)`);
      await t.exec(`insert into ${name} (id, u, b, f) values ${rows.map((r, i) => `(${i + 1}, ${r.u}, ${r.b}, ${r.f})`).join(', ')}`);
      const refRows: RefRow[] = rows.map((r) => ({ u: { t: 'int', v: BigInt.asIntN(32, BigInt(r.u)) }, b: { t: 'bigint', v: r.b }, f: { t: 'float', v: r.f } }));
      // a bare column is the attribute itself (a uint shows unsigned), not an expression
      if (!valid(e, refRows[0]!) || e.k === 'col') return;
      const out = await t.exec(`select id, ${refText(e)} as x from ${name} order by id asc`);
      const res = out[out.length - 1] as RowsResult;
      expect(res.kind, JSON.stringify(res, (_k, v) => (typeof v === "bigint" ? String(v) : v))).toBe('rows');
      checked++;
      res.rows.forEach((row, i) => {
        const want = refEval(e, refRows[i]!);
        const got = cellToSqlText(row[1] as never, res.columns[1]!.kind);
        if (want.t === 'float') {
          expect(res.columns[1]!.kind).toBe('float');
          const g = Number(got);
          expect(Math.abs(g - Number(want.v))).toBeLessThanOrEqual(Math.abs(Number(want.v)) * 1e-6 + 1e-6);
        } else {
          expect(got, refText(e)).toBe(String(want.v));
        }
      });
      await t.exec(`drop table ${name}`);
    }), { numRuns: 60 });
    // most generated expressions are valid ones, so the comparison really ran
    expect(checked).toBeGreaterThan(30);
  }, 120000);
});

/** Expressions the core sorts by: uint and float attributes, small constants. */
const sortLeaf: fc.Arbitrary<RefExpr> = fc.oneof(
  fc.constantFrom('u', 'f').map((name) => ({ k: 'col', name }) as RefExpr),
  fc.integer({ min: -20, max: 20 }).map((n) => ({ k: 'num', text: String(n) }) as RefExpr),
  fc.constantFrom('0.5', '3.25').map((text) => ({ k: 'num', text }) as RefExpr),
);
const sortExpr: fc.Arbitrary<RefExpr> = fc.letrec<{ e: RefExpr }>((tie) => ({
  e: fc.oneof(
    { depthSize: 'small', withCrossShrink: true },
    sortLeaf,
    fc.record({ k: fc.constant('bin'), op: fc.constantFrom('+', '-', '*', '/', '<', '>='), a: tie('e'), b: tie('e') }) as fc.Arbitrary<RefExpr>,
    fc.record({ k: fc.constant('fn'), name: fc.constantFrom('abs', 'sqrt'), args: fc.tuple(tie('e')) }) as fc.Arbitrary<RefExpr>,
    fc.record({ k: fc.constant('fn'), name: fc.constantFrom('min', 'max'), args: fc.tuple(tie('e'), tie('e')) }) as fc.Arbitrary<RefExpr>,
  ),
})).e;

describe('ORDER BY an expression alias vs a reference sort', () => {
  it('the core orders rows of several segments as the reference values do (ties by id)', async () => {
    let table = 0;
    await fc.assert(fc.asyncProperty(fc.array(rowArb, { minLength: 1, maxLength: 12 }), sortExpr, fc.boolean(), async (rows, e, desc) => {
      const name = `s${table++}`;
      await t.exec(`create table ${name} (title text, u uint, b bigint, f float)`);
      const half = Math.ceil(rows.length / 2);
      for (const [from, to] of [[0, half], [half, rows.length]] as const) {
        if (to > from) await t.exec(`insert into ${name} (id, u, f) values ${rows.slice(from, to).map((r, i) => `(${from + i + 1}, ${r.u % 1000}, ${r.f})`).join(', ')}`);
      }
      const refRows: RefRow[] = rows.map((r) => ({ u: { t: 'int', v: BigInt(r.u % 1000) }, b: { t: 'bigint', v: 0n }, f: { t: 'float', v: r.f } }));
      const vals = refRows.map((r) => Number(refEval(e, r).v));
      const want = vals.map((v, i) => ({ v, id: i + 1 })).sort((a, b) => (a.v !== b.v ? (desc ? b.v - a.v : a.v - b.v) : a.id - b.id)).map((x) => String(x.id));
      const out = await t.exec(`select id, ${refText(e)} as x from ${name} order by x ${desc ? 'desc' : 'asc'}, id asc`);
      const res = out[out.length - 1] as RowsResult;
      expect(res.kind, refText(e)).toBe('rows');
      expect(res.rows.map((r) => String(r[0])), refText(e)).toEqual(want);
      await t.exec(`drop table ${name}`);
    }), { numRuns: 40 });
  }, 120000);
});

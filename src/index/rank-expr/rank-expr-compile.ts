/**
 * Compiles a ranking expression to the core's bytecode (assembly/rank/expr.ts). Types follow
 * Manticore's expression parser: integer factors and constants stay i32 (IntEval) until a float
 * operand, `/` or a float function makes the node float (Eval, f32); a float formula is truncated.
 */
import { SearchError } from '../../util/errors.js';
import type { ColumnType } from '../../schema/types.js';
import { parseRankExpr, type RExpr } from './rank-expr-parse.js';
import { checkArgs } from './rank-expr-args.js';
import {
  X, USES, FACTORS, CMP, MATH, XF_MAX_WINDOW_HITS, MAX_STACK, MIN_K1, NUMERIC, TYPE_ERROR, fbits, fitsInt,
  type RankExprSchema,
} from './rank-expr-words.js';

export { X, USES, MAX_STACK, type RankExprSchema };

/**
 * `window`: the n of max_window_hits(n) (the last one written wins, as Manticore's hook keeps the
 * last node's); `uses`: the USES_* groups the formula reads.
 */
export interface CompiledRankExpr { code: number[]; float: boolean; window: number; uses: number }

function err(msg: string): never {
  throw new SearchError('QUERY_ERROR', msg);
}

interface AttrRef { col: number; type: ColumnType }

class Compiler {
  constructor(private readonly schema: RankExprSchema) {}
  code: number[] = [];
  depth = 0;
  maxDepth = 0;
  inAggregate = false;
  window = 1;
  uses = 0;

  grow(n: number): void {
    this.depth += n;
    this.maxDepth = Math.max(this.maxDepth, this.depth);
  }

  /** The attribute a name refers to (column 0 is the document id), when it is not a factor. */
  attr(name: string): AttrRef | undefined {
    if (FACTORS[name] || name === 'weight') return undefined;
    if (name === 'id') return { col: 0, type: 'bigint' };
    const i = this.schema.attrs.findIndex((a) => a.name.toLowerCase() === name);
    return i < 0 ? undefined : { col: i + 1, type: this.schema.attrs[i].type };
  }

  /** Whether an integer node is 64-bit (a bigint attribute widens arithmetic, as Manticore's GetWidestRet). */
  isBig(e: RExpr): boolean {
    if (this.isFloat(e)) return false;
    switch (e.k) {
      case 'num': return !fitsInt(e.v);
      case 'id': return this.attr(e.name)?.type === 'bigint';
      case 'un': return e.op === '-' && this.isBig(e.a);
      case 'bin': return !(e.op in CMP || e.op === 'and' || e.op === 'or') && (this.isBig(e.a) || this.isBig(e.b));
      case 'call':
        if (['sum', 'top', 'abs', 'min', 'max'].includes(e.name)) return e.args.some((a) => this.isBig(a));
        if (e.name === 'if') return e.args.slice(1).some((a) => this.isBig(a));
        return false;
      default: return false;
    }
  }

  /** Whether a node is float-typed. */
  isFloat(e: RExpr): boolean {
    switch (e.k) {
      case 'num': return e.float;
      case 'id': return FACTORS[e.name]?.float ?? this.attr(e.name)?.type === 'float';
      case 'map': return false;
      case 'un': return e.op === '-' && this.isFloat(e.a);
      case 'bin':
        if (e.op === '/') return true;
        if (e.op in CMP || e.op === 'and' || e.op === 'or') return false;
        return this.isFloat(e.a) || this.isFloat(e.b);
      case 'call': return this.callFloat(e);
    }
  }

  callFloat(e: Extract<RExpr, { k: 'call' }>): boolean {
    const n = e.name;
    if (n === 'bm25a' || n === 'bm25f' || n === 'pow' || n in MATH) return true;
    if (n === 'rand' && this.schema.rand) return true;
    if (n === 'sum' || n === 'top' || n === 'abs') return e.args.length > 0 && this.isFloat(e.args[0]);
    if (n === 'min' || n === 'max') return e.args.some((a) => this.isFloat(a));
    if (n === 'if') return e.args.slice(1).some((a) => this.isFloat(a));
    return false;
  }

  /** Emits `e` leaving one value of the wanted kind on the stack. */
  emit(e: RExpr, float: boolean): void {
    if (!float && this.isFloat(e)) {
      this.emit(e, true);
      this.code.push(X.F2I);
      return;
    }
    switch (e.k) {
      case 'num':
        if (!float && !fitsInt(e.v)) {
          // Manticore parses such a constant as a bigint
          const v = BigInt.asUintN(64, BigInt(Math.trunc(e.v)));
          this.code.push(X.CONST_L, Number(v & 0xffffffffn), Number(v >> 32n));
        } else this.code.push(float ? X.CONST_F : X.CONST_I, float ? fbits(e.v) : Math.trunc(e.v) >>> 0);
        this.grow(1);
        return;
      case 'id': return this.factor(e.name, float);
      case 'map': return err('argument 1 to expression must be scalar (integer or float)');
      case 'un':
        if (e.op === 'not') {
          this.emit(e.a, this.isFloat(e.a));
          this.code.push(X.NOT);
          if (float) this.code.push(X.I2F);
          return;
        }
        this.emit(e.a, float);
        this.code.push(float ? X.NEG_F : X.NEG_I);
        return;
      case 'bin': return this.binary(e, float);
      case 'call': return this.call(e, float);
    }
  }

  factor(name: string, float: boolean): void {
    if (name === 'weight') err('ranking expression must not refer to WEIGHT()');
    const f = FACTORS[name];
    if (!f) return this.attrRead(name, float);
    if (f.field && !this.inAggregate) err('field factors must only occur within field aggregation functions in ranking expression');
    this.uses |= f.uses ?? 0;
    this.code.push(X.FACTOR, f.id);
    this.grow(1);
    if (float && !f.float) this.code.push(X.I2F);
  }

  /** A numeric attribute of the row; others are Manticore's type error, unknown names its unknown column. */
  attrRead(name: string, float: boolean): void {
    const a = this.attr(name);
    if (!a) err(`unknown column: ${name}`);
    if (!NUMERIC.has(a.type)) err(TYPE_ERROR);
    this.code.push(X.ATTR, a.col, float ? 1 : 0);
    this.grow(1);
  }

  binary(e: Extract<RExpr, { k: 'bin' }>, float: boolean): void {
    if (e.op in CMP || e.op === 'and' || e.op === 'or') {
      const operandsFloat = this.isFloat(e.a) || this.isFloat(e.b);
      this.emit(e.a, operandsFloat);
      this.emit(e.b, operandsFloat);
      if (e.op in CMP) this.code.push(operandsFloat ? X.CMP_F : X.CMP_I, CMP[e.op]);
      else this.code.push(e.op === 'and' ? X.AND : X.OR);
      this.depth--;
      if (float) this.code.push(X.I2F);
      return;
    }
    if (e.op === '%') {
      this.emit(e.a, false);
      this.emit(e.b, false);
      this.code.push(X.MOD_I);
      this.depth--;
      if (float) this.code.push(X.I2F);
      return;
    }
    this.emit(e.a, float);
    this.emit(e.b, float);
    this.depth--;
    const ops = float ? { '+': X.ADD_F, '-': X.SUB_F, '*': X.MUL_F, '/': X.DIV_F } : { '+': X.ADD_I, '-': X.SUB_I, '*': X.MUL_I, '/': X.DIV_F };
    this.code.push(ops[e.op as '+' | '-' | '*' | '/']);
  }

  arity(e: Extract<RExpr, { k: 'call' }>, n: number): void {
    if (e.args.length !== n) err(`${e.name.toUpperCase()}() called with ${e.args.length} args, ${n} args expected`);
  }

  call(e: Extract<RExpr, { k: 'call' }>, float: boolean): void {
    const n = e.name;
    if (n === 'weight') err('ranking expression must not refer to WEIGHT()');
    if (n === 'sum' || n === 'top') return this.aggregate(e, float);
    if (n === 'bm25a') return this.bm25a(e);
    if (n === 'bm25f') return this.bm25f(e);
    if (n === 'max_window_hits') return this.maxWindowHits(e, float);
    if (n === 'rand' && this.schema.rand) return this.rand(e);
    if (n === 'min' || n === 'max') {
      this.arity(e, 2);
      e.args.forEach((a) => this.emit(a, float));
      this.depth--;
      this.code.push(n === 'min' ? (float ? X.MIN_F : X.MIN_I) : (float ? X.MAX_F : X.MAX_I));
      return;
    }
    if (n === 'abs') {
      this.arity(e, 1);
      this.emit(e.args[0], float);
      this.code.push(float ? X.ABS_F : X.ABS_I);
      return;
    }
    if (n === 'if') {
      this.arity(e, 3);
      this.emit(e.args[0], this.isFloat(e.args[0]));
      this.emit(e.args[1], float);
      this.emit(e.args[2], float);
      this.depth -= 2;
      this.code.push(X.IF);
      return;
    }
    if (n in MATH || n === 'pow') {
      this.arity(e, n === 'pow' ? 2 : 1);
      e.args.forEach((a) => this.emit(a, true));
      if (n === 'pow') {
        this.depth--;
        this.code.push(X.POW_F);
      } else this.code.push(X.MATH_F, MATH[n]);
      return;
    }
    err(`unknown function '${n}'`);
  }

  aggregate(e: Extract<RExpr, { k: 'call' }>, float: boolean): void {
    if (this.inAggregate) err('field aggregates can not be nested in ranking expression');
    this.arity(e, 1);
    this.inAggregate = true;
    const head = this.code.length;
    const top = e.name === 'top';
    this.code.push(float ? (top ? X.TOP_F : X.SUM_F) : (top ? X.TOP_I : X.SUM_I), 0);
    this.emit(e.args[0], float);
    this.code[head + 1] = this.code.length - head - 2;
    this.inAggregate = false;
  }

  /** max_window_hits(n): a constant integer n (Manticore's "c:i" signature), a field factor. */
  maxWindowHits(e: Extract<RExpr, { k: 'call' }>, float: boolean): void {
    const [n] = checkArgs(e, 'MAX_WINDOW_HITS', ['i'], (a) => this.isFloat(a));
    if (!this.inAggregate) err('field factors must only occur within field aggregation functions in ranking expression');
    // Manticore keeps an int and takes sizes up to 1 as "one hit per window"
    this.window = Math.trunc(n) > 1 ? Math.min(Math.trunc(n), 0x7fffffff) : 1;
    this.uses |= USES.WINDOW;
    this.code.push(X.FACTOR, XF_MAX_WINDOW_HITS);
    this.grow(1);
    if (float) this.code.push(X.I2F);
  }

  /**
   * rand(seed): RAND() of the row, the core's hash of its id with the seed (assembly/rank/rand-id.ts), a float
   * as the host's RAND() (rand.ts); the operator that reads it takes it as f32, as the host's Math.fround.
   */
  rand(e: Extract<RExpr, { k: 'call' }>): void {
    const seed = e.args[0];
    if (e.args.length !== 1 || seed.k !== 'num' || seed.float || seed.v < 0 || seed.v > 0xffffffff) err('rand() takes the resolved 32-bit seed here');
    this.code.push(X.RAND_ID, seed.v >>> 0);
    this.grow(1);
  }

  bm25a(e: Extract<RExpr, { k: 'call' }>): void {
    const v = checkArgs(e, 'BM25A', ['ss', 'sss'], (a) => this.isFloat(a));
    const k1 = Math.max(v[0], MIN_K1);
    const b = Math.min(Math.max(v[1], 0), 1);
    const avg = e.args.length === 3 ? Math.max(v[2], 0) : 0;
    this.code.push(X.BM25A, fbits(k1), fbits(b), fbits(avg));
    this.grow(1);
  }

  /**
   * BM25F: per-field weights from the map (unknown fields ignored, missing ones 1, divided by the
   * largest, at least 1), as Manticore's Expr_BM25F_T. Field averages come with the table's
   * field lengths; without them the core skips every field and the value is 0.5.
   */
  bm25f(e: Extract<RExpr, { k: 'call' }>): void {
    const v = checkArgs(e, 'BM25F', ['ss', 'ssh'], (a) => this.isFloat(a));
    const k1 = Math.max(v[0], MIN_K1);
    const b = Math.min(Math.max(v[1], 0), 1);
    const map = e.args[2];
    const fields = this.schema.fields.map((f) => f.toLowerCase());
    const weights = fields.map(() => 1);
    let max = 1;
    if (map?.k === 'map') {
      for (const [name, w] of map.entries) {
        const i = fields.indexOf(name);
        if (i < 0) continue;
        weights[i] = w;
        max = Math.max(max, w);
      }
    }
    this.uses |= USES.FIELD_TF;
    this.code.push(X.BM25F, fbits(k1), fbits(b), max >>> 0, weights.length, ...weights.map((w) => w >>> 0));
    this.grow(1);
  }
}

/** Compiles `src` against the table's fields and attributes; throws Manticore's error texts. */
export function compileRankExpr(src: string, schema: RankExprSchema = { fields: [], attrs: [] }): CompiledRankExpr {
  const tree = parseRankExpr(src);
  const c = new Compiler(schema);
  const float = c.isFloat(tree);
  if (!float && c.isBig(tree)) err(TYPE_ERROR);
  c.emit(tree, float);
  if (c.maxDepth > MAX_STACK) err('ranking expression is too complex');
  return { code: c.code, float, window: c.window, uses: c.uses };
}

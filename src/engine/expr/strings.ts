/**
 * String functions of expressions: CONCAT, TO_STRING, LENGTH, SUBSTRING_INDEX, REGEX, CRC32. They run in
 * TypeScript over the rows whose values are shown (or over the predicate rows of WHERE).
 */
import type { Expr } from '../../sql/ast.js';
import { printfFixed } from '../values/printf-fixed.js';
import { exprError } from './errors.js';
import { re2Pattern } from './re2-pattern.js';
import { toFloat, type CompiledExpr, type ExprValue } from './values.js';
import type { ExprContext } from './compile.js';

const utf8 = new TextEncoder();

/** TO_STRING(): integers in decimal, floats as `%f`, MVA as `1,2,3`, JSON as its text. */
export function valueText(v: ExprValue, type: CompiledExpr['type']): string {
  if (v == null) return '';
  if (type === 'float') return printfFixed(toFloat(v), 6);
  if (type === 'mva') return (v as bigint[]).join(',');
  if (type === 'json') return typeof v === 'string' ? v : JSON.stringify(v);
  return String(v);
}

const CRC_TABLE = (() => {
  const t = new Uint32Array(256);
  for (let n = 0; n < 256; n++) {
    let c = n;
    for (let k = 0; k < 8; k++) c = c & 1 ? 0xedb88320 ^ (c >>> 1) : c >>> 1;
    t[n] = c >>> 0;
  }
  return t;
})();

/** CRC-32 (IEEE, as zlib and searchd's sphCRC32) of a string's UTF-8 bytes, unsigned. */
export function crc32(s: string): number {
  let c = 0xffffffff;
  for (const b of utf8.encode(s)) c = CRC_TABLE[(c ^ b) & 0xff]! ^ (c >>> 8);
  return (c ^ 0xffffffff) >>> 0;
}

/** MySQL's SUBSTRING_INDEX: text before the count-th delimiter (count < 0: after the count-th from the end). */
export function substringIndex(s: string, delim: string, count: number): string {
  if (!delim || count === 0) return '';
  const parts = s.split(delim);
  if (count > 0) return parts.slice(0, count).join(delim);
  return parts.slice(Math.max(0, parts.length + count)).join(delim);
}

function literalString(ctx: ExprContext, e: Expr | undefined, fn: string, n: number): string {
  if (e?.kind === 'literal' && e.value.kind === 'string') return e.value.value;
  throw exprError(ctx.table, `${fn}() arguments ${n} must be string`);
}

/** The compiled call, or undefined when `name` is not a string function. */
export function stringCall(ctx: ExprContext, name: string, args: CompiledExpr[], e: Expr & { kind: 'call' }): CompiledExpr | undefined {
  const a = args[0]!;
  switch (name) {
    case 'crc32':
      // searchd hashes the string form; a number has none there, so it is an error here, not a silent 0
      if (a.type !== 'string' && a.type !== 'json') throw exprError(ctx.table, 'crc32() argument must be string');
      return { type: 'bigint', eval: (r) => { const v = a.eval(r); return BigInt(v == null ? 0 : crc32(valueText(v, a.type))); } };
    case 'to_string': return { type: 'string', eval: (r) => valueText(a.eval(r), a.type) };
    case 'concat': return { type: 'string', eval: (r) => args.map((x) => valueText(x.eval(r), x.type)).join('') };
    case 'length':
      if (a.type === 'string') return { type: 'int', eval: (r) => utf8.encode(String(a.eval(r))).length };
      if (a.type === 'mva') return { type: 'int', eval: (r) => (a.eval(r) as bigint[]).length };
      if (a.type === 'json') {
        return {
          type: 'int',
          eval: (r) => {
            const v = a.eval(r);
            if (Array.isArray(v)) return v.length;
            if (v && typeof v === 'object') return Object.keys(v).length;
            return typeof v === 'string' ? utf8.encode(v).length : 0;
          },
        };
      }
      throw exprError(ctx.table, 'length() argument must be string, MVA or JSON attribute');
    case 'substring_index': {
      if (a.type !== 'string' && a.type !== 'json') throw exprError(ctx.table, 'substring_index() argument 1 must be string or json');
      const delim = literalString(ctx, e.args[1], 'substring_index', 2);
      const count = args[2]!;
      if (count.type !== 'int' && count.type !== 'bigint') throw exprError(ctx.table, 'substring_index() arguments 3 must be numeric');
      return { type: 'string', eval: (r) => substringIndex(valueText(a.eval(r), a.type), delim, Number(count.eval(r))) };
    }
    case 'regex': {
      if (a.type !== 'string' && a.type !== 'json') throw exprError(ctx.table, 'first regex() argument must be string or JSON.field');
      const source = literalString(ctx, e.args[1], 'regex', 2);
      let re: RegExp;
      try { re = re2Pattern(source); } catch { throw exprError(ctx.table, `regex() pattern '${source}' is invalid`); }
      return { type: 'int', eval: (r) => { const v = a.eval(r); return typeof v === 'string' && re.test(v) ? 1 : 0; } };
    }
  }
  return undefined;
}

/**
 * Parses the formula of `ranker=expr('...')` into a small tree: numbers, identifiers, calls,
 * `{name=value, ...}` maps (bm25f weights), unary - and NOT, and Manticore's binary operators.
 */
import { SearchError } from '../../util/errors.js';

export type RExpr =
  | { k: 'num'; v: number; float: boolean }
  | { k: 'id'; name: string }
  | { k: 'call'; name: string; args: RExpr[] }
  | { k: 'map'; entries: Map<string, number> }
  | { k: 'un'; op: '-' | 'not'; a: RExpr }
  | { k: 'bin'; op: string; a: RExpr; b: RExpr };

/** Binary operators by precedence level, loosest first (as sphinxexpr.y orders them). */
const LEVELS: string[][] = [['or'], ['and'], ['=', '==', '!=', '<>', '<', '>', '<=', '>='], ['+', '-'], ['*', '/', '%']];

const TOKEN = /\s*(?:(\d+\.\d*(?:e[+-]?\d+)?|\.\d+(?:e[+-]?\d+)?|\d+e[+-]?\d+|\d+)|([a-z_][a-z0-9_]*)|(==|!=|<>|<=|>=|\|\||&&|[-+*/%()<>=,{}!]))/iy;

function tokenize(src: string): string[] {
  const out: string[] = [];
  TOKEN.lastIndex = 0;
  let at = 0;
  while (at < src.length) {
    if (/^\s*$/.test(src.slice(at))) break;
    TOKEN.lastIndex = at;
    const m = TOKEN.exec(src);
    if (!m) throw new SearchError('QUERY_ERROR', `syntax error, unexpected character near '${src.slice(at).trim()}'`);
    const t = m[1] ?? m[2] ?? m[3];
    out.push(t === '||' ? 'or' : t === '&&' ? 'and' : t === '!' ? 'not' : /^[a-z_]/i.test(t) ? t.toLowerCase() : t);
    at = TOKEN.lastIndex;
  }
  return out;
}

class Parser {
  i = 0;
  constructor(readonly t: string[], private readonly src: string) {}

  fail(): never {
    const near = this.t.slice(this.i).join(' ');
    throw new SearchError('QUERY_ERROR', near ? `syntax error near '${near}'` : `syntax error, unexpected end of expression '${this.src}'`);
  }

  eat(tok: string): void {
    if (this.t[this.i] !== tok) this.fail();
    this.i++;
  }

  binary(level: number): RExpr {
    if (level === LEVELS.length) return this.unary();
    let a = this.binary(level + 1);
    while (this.i < this.t.length && LEVELS[level].includes(this.t[this.i])) {
      const op = this.t[this.i++];
      a = { k: 'bin', op: op === '==' ? '=' : op === '<>' ? '!=' : op, a, b: this.binary(level + 1) };
    }
    return a;
  }

  unary(): RExpr {
    const t = this.t[this.i];
    if (t === '-') {
      this.i++;
      return { k: 'un', op: '-', a: this.unary() };
    }
    if (t === 'not') {
      this.i++;
      return { k: 'un', op: 'not', a: this.unary() };
    }
    return this.primary();
  }

  primary(): RExpr {
    const t = this.t[this.i++];
    if (t === undefined) this.fail();
    if (t === '(') {
      const e = this.binary(0);
      this.eat(')');
      return e;
    }
    if (t === '{') return this.map();
    if (/^[\d.]/.test(t)) return { k: 'num', v: Number(t), float: /[.e]/i.test(t) };
    if (!/^[a-z_]/.test(t)) {
      this.i--;
      this.fail();
    }
    if (this.t[this.i] !== '(') return { k: 'id', name: t };
    this.i++;
    const args: RExpr[] = [];
    if (this.t[this.i] !== ')') {
      args.push(this.binary(0));
      while (this.t[this.i] === ',') {
        this.i++;
        args.push(this.binary(0));
      }
    }
    this.eat(')');
    return { k: 'call', name: t, args };
  }

  map(): RExpr {
    const entries = new Map<string, number>();
    while (this.t[this.i] !== '}') {
      const key = this.t[this.i++];
      if (!key || !/^[a-z_]/.test(key)) this.fail();
      this.eat('=');
      const neg = this.t[this.i] === '-';
      if (neg) this.i++;
      const v = this.t[this.i++];
      if (!v || !/^[\d.]/.test(v)) this.fail();
      entries.set(key, Math.trunc(Number(v)) * (neg ? -1 : 1));
      if (this.t[this.i] === ',') this.i++;
    }
    this.i++;
    return { k: 'map', entries };
  }
}

export function parseRankExpr(src: string): RExpr {
  const p = new Parser(tokenize(src), src);
  if (!p.t.length) throw new SearchError('QUERY_ERROR', 'ranking expression is empty');
  const e = p.binary(0);
  if (p.i < p.t.length) p.fail();
  return e;
}

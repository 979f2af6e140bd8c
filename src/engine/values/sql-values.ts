/** SQL AST literals and option values as the engine's Literal and plain JS values. */
import type { Literal as SqlLiteral, NamedValue, OptionValue } from '../../sql/ast.js';
import { SearchError } from '../../util/errors.js';
import type { Literal } from './literal.js';

export function fromSql(l: SqlLiteral): Literal {
  switch (l.kind) {
    case 'int': return { t: 'int', v: BigInt(l.value) };
    case 'float': return { t: 'float', v: l.value };
    case 'string': return { t: 'string', v: l.value };
    case 'null': return { t: 'null' };
    case 'tuple': return { t: 'tuple', v: l.items.map(fromSql) };
  }
}

/** An option's value as a number (ints and floats), or undefined. */
export function optionNumber(v: OptionValue): number | undefined {
  if (v.kind === 'int') return Number(v.value);
  if (v.kind === 'float') return v.value;
  if (v.kind === 'string' && v.value.trim() !== '' && !Number.isNaN(Number(v.value))) return Number(v.value);
  return undefined;
}

/** An option's value as text: identifiers and strings by name, numbers as typed. */
export function optionText(v: OptionValue): string {
  switch (v.kind) {
    case 'ident': return v.name;
    case 'string': return v.value;
    case 'int': case 'float': return v.text;
    case 'call': return `${v.name}('${v.arg}')`;
    case 'null': return '';
    case 'tuple': return v.items.map((i) => i.text).join(',');
    case 'list': return v.entries.map((e) => `${e.name}=${optionText(e.value)}`).join(',');
  }
}

/** A statement without OPTION (most of them): one shared empty map, read only. */
const NO_OPTIONS: ReadonlyMap<string, OptionValue> = new Map();

/** `OPTION a=1, b=x` as a map; later duplicates win, as in Manticore. */
export function optionMap(options: readonly NamedValue[] | undefined): ReadonlyMap<string, OptionValue> {
  if (!options?.length) return NO_OPTIONS;
  return new Map(options.map((o) => [o.name, o.value]));
}

export function requireNumber(name: string, v: OptionValue): number {
  const n = optionNumber(v);
  if (n === undefined) throw new SearchError('QUERY_ERROR', `option ${name}: integer value expected`);
  return n;
}

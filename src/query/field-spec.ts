/**
 * Field limit (`@title`, `@(a,b)`, `@!title`, `@*`, `@title[N]`) and zone (`ZONE:(h1,h2)`) operators,
 * read from raw query text exactly as Manticore reads them, with its error texts.
 */
import type { FieldLimit } from './ast.js';
import { SearchError } from '../util/errors.js';

/** Manticore's "alpha" for field and zone names: ASCII letters, digits, `-` and `_`. */
export const isNameChar = (c: string | undefined): boolean => c !== undefined && /^[0-9A-Za-z_-]$/.test(c);

/** A parse error with Manticore's `query error: ` prefix (the prefix its XQParseHelper adds). */
export function queryError(message: string): SearchError {
  return new SearchError('PARSE_ERROR', `query error: ${message}`);
}

export interface FieldContext {
  /** Schema full-text fields; when given, names are checked and normalized to this spelling. */
  fields?: string[];
  /** `@@relaxed`: unknown fields are warnings instead of errors. */
  relaxed: boolean;
  /** JSON `match` names: always a list (no parentheses), `_all` means all, no closing `)` needed. */
  json: boolean;
  warn(message: string): void;
}

/** A field limit as read: the public limit plus whether it selects no field at all. */
export interface ParsedFieldLimit {
  limit: FieldLimit;
  /** True when the limit is known to select no field (Manticore deletes such nodes). */
  empty: boolean;
}

export type FieldParse =
  | { kind: 'limit'; spec: ParsedFieldLimit; next: number }
  | { kind: 'ignore'; next: number };

/** Reads the field operator that follows an `@` at `pos` (for JSON: a match property name). */
export function parseFieldOperator(s: string, pos: number, ctx: FieldContext): FieldParse {
  if (pos >= s.length) return { kind: 'limit', spec: emptyLimit(ctx.fields), next: pos };
  let p = pos;
  let negate = false;
  let block = false;
  if (s[p] === '!') {
    negate = true;
    p++;
    if (s[p] === '(') { block = true; p++; }
  } else if (s[p] === '*') {
    return { kind: 'limit', spec: { limit: { fields: [], exclude: false }, empty: false }, next: p + 1 };
  } else if (ctx.json && s.startsWith('_all', p)) {
    return { kind: 'limit', spec: { limit: { fields: [], exclude: false }, empty: false }, next: p + 4 };
  } else if (ctx.json) {
    block = true;
  } else if (s[p] === '(') {
    block = true;
    p++;
  }
  if (!isNameChar(s[p])) return { kind: 'ignore', next: p };
  const names: string[] = [];
  if (!block) {
    const from = p;
    while (p < s.length && isNameChar(s[p])) p++;
    names.push(s.slice(from, p));
  } else {
    const read = readNameBlock(s, p, ctx);
    names.push(...read.names);
    p = read.next;
    if (!read.closed) return { kind: 'limit', spec: makeLimit(names, negate, 0, ctx), next: p };
  }
  let maxPos = 0;
  if (s[p] === '[' && /[0-9]/.test(s[p + 1] ?? '')) {
    let q = p + 1;
    while (q < s.length && /[0-9]/.test(s[q]!)) q++;
    if (s[q] === ']') {
      maxPos = Number(s.slice(p + 1, q));
      p = q + 1;
    }
  }
  return { kind: 'limit', spec: makeLimit(names, negate, maxPos, ctx), next: p };
}

/** `name,name,...)`: names may contain dots; a missing `)` is an error except for JSON names. */
function readNameBlock(s: string, pos: number, ctx: FieldContext): { names: string[]; next: number; closed: boolean } {
  const names: string[] = [];
  let p = pos;
  let from = -1;
  while (p < s.length) {
    const c = s[p]!;
    if (isNameChar(c) || c === '.') {
      if (from < 0) from = p;
      p++;
      continue;
    }
    if (from < 0) {
      throw queryError(`error parsing field list: invalid field block operator syntax near '${s.slice(p)}'`);
    }
    if (c === ',') {
      names.push(s.slice(from, p));
      from = -1;
      p++;
    } else if (c === ')') {
      names.push(s.slice(from, p));
      return { names, next: p + 1, closed: true };
    } else {
      throw queryError(`error parsing field list: invalid character '${c}' in field block operator`);
    }
  }
  if (!ctx.json) throw queryError("error parsing field list: missing closing ')' in field block operator");
  names.push(s.slice(from < 0 ? p : from, p));
  return { names, next: p, closed: false };
}

/** Checks names against the schema (Manticore: case-insensitive) and builds the limit. */
function makeLimit(names: string[], exclude: boolean, maxPos: number, ctx: FieldContext): ParsedFieldLimit {
  const kept: string[] = [];
  for (const name of names) {
    if (!name) throw queryError('empty field passed to AddField()');
    if (!ctx.fields) { kept.push(name); continue; }
    const known = ctx.fields.find((f) => f.toLowerCase() === name.toLowerCase());
    if (known !== undefined) kept.push(known);
    else if (ctx.relaxed) ctx.warn(`no field '${name}' found in schema`);
    else throw queryError(`no field '${name}' found in schema`);
  }
  const empty = ctx.fields !== undefined && (exclude ? ctx.fields.every((f) => kept.includes(f)) : kept.length === 0);
  // A limit selecting nothing is written as "all fields but all of them" (`@*` is `fields: []`).
  const limit: FieldLimit = empty ? { fields: [...ctx.fields!], exclude: true } : { fields: kept, exclude };
  if (maxPos) limit.maxPos = maxPos;
  return { limit, empty };
}

/** The limit of a field operator at the very end of the query: it selects no field. */
export function emptyLimit(fields?: string[]): ParsedFieldLimit {
  return { limit: { fields: fields ? [...fields] : [], exclude: true }, empty: true };
}

/** Reads `name` or `(name,name)` after `ZONE:`; names are lowercased. */
export function parseZoneNames(s: string, pos: number): { zones: string[]; next: number } {
  let p = pos;
  if (isNameChar(s[p])) {
    while (isNameChar(s[p])) p++;
    return { zones: [s.slice(pos, p).toLowerCase()], next: p };
  }
  const zones: string[] = [];
  p++;
  let from = p;
  for (;;) {
    // At the end Manticore prints a NUL with %c, which cuts its message short.
    if (p >= s.length) throw queryError("unexpected character '");
    if (!isNameChar(s[p])) throw queryError(`unexpected character '${s[p]}' in zone block operator`);
    while (isNameChar(s[p])) p++;
    const zone = s.slice(from, p).toLowerCase();
    if (!zones.includes(zone)) zones.push(zone);
    if (s[p] === ')') return { zones, next: p + 1 };
    if (s[p] === ',') from = ++p;
  }
}

/** Renders result Cells as MySQL text-protocol strings and as JSON values (spec section 8). */
import type { Cell, CellKind } from '../result.js';
import { printedJson } from '../json/json-print.js';
import { printfFixed } from './printf-fixed.js';

/**
 * A piece of JSON text that a serializer writes verbatim: exact 64-bit integers and floats printed
 * the way Manticore prints them (`1.100000`), which a JS number cannot carry.
 */
export class RawJson {
  constructor(readonly text: string) {}
}

/**
 * A JSON object whose keys keep their order even when they look like integers (`SELECT 1, 2`
 * columns), which a plain JS object would reorder.
 */
export class JsonFields {
  constructor(readonly entries: Array<[string, JsonOut]>) {}
}

/** A JSON value as the HTTP renderers build it; bigint is written exactly, RawJson as is. */
export type JsonOut =
  | null | boolean | number | bigint | string | RawJson | JsonFields | JsonOut[] | { [key: string]: JsonOut };

/** Decimals of C's `%f`. */
export const FLOAT_DECIMALS = 6;
/** Decimals of the `%1.8f` fallback Manticore uses when `%f` does not round-trip a float32. */
export const FLOAT_FALLBACK_DECIMALS = 8;

/** A float attribute as SQL text: `%f` of its float32 value (1099.99 -> "1099.989990"). */
export function formatFloatSql(value: number): string {
  return printfFixed(Math.fround(value), FLOAT_DECIMALS);
}

/**
 * A float32 as the shortest decimal text that reads back as the same float32 (at most 9 significant
 * digits: `0.12345679`, `1e-12`): what a logical dump needs so floats survive the round trip.
 */
export function formatFloatExact(value: number): string {
  const f = Math.fround(value);
  if (!Number.isFinite(f)) return formatFloatSql(f);
  for (let p = 1; p < 9; p++) {
    const text = f.toPrecision(p);
    if (Math.fround(Number(text)) === f) return String(Number(text));
  }
  return String(Number(f.toPrecision(9)));
}

/**
 * A float as Manticore writes it into JSON (`PrintVarFloat`): `%f`, or `%1.8f` when the six-decimal
 * text does not read back as the same float32 (2.2 -> "2.200000", 44.4 -> "44.400002",
 * 1e-7 -> "0.00000010").
 */
export function formatFloatJson(value: number): string {
  const f = Math.fround(value);
  const text = printfFixed(f, FLOAT_DECIMALS);
  if (!Number.isFinite(f) || Math.fround(Number.parseFloat(text)) === f) return text;
  return printfFixed(f, FLOAT_FALLBACK_DECIMALS);
}

/**
 * A float cell in a JSON answer. JSON has no inf: a float that is infinite as the 32-bit value
 * Manticore keeps (stored from 1e309, or an expression such as `SELECT 1e308` beyond float range)
 * is null, so the answer stays valid JSON (the fuzzer found `"1e308":inf` in /sql?mode=raw).
 */
function floatJson(value: number): JsonOut {
  return Number.isFinite(Math.fround(value)) ? new RawJson(formatFloatJson(value)) : null;
}

/** An integer cell's decimal text (cellToSourceJson's for bigint, uint and timestamp columns). */
export function integerText(value: Cell): string {
  return typeof value === 'bigint' ? value.toString() : String(Math.trunc(Number(value)));
}

function mvaText(value: Cell): string {
  return Array.isArray(value) ? value.map((v) => v.toString()).join(',') : String(value);
}

/** One cell as the MySQL text protocol sends it; SQL NULL is null. */
export function cellToSqlText(value: Cell, kind: CellKind): string | null {
  if (value === null || value === undefined) return null;
  switch (kind) {
    case 'bigint':
    case 'uint':
    case 'timestamp':
    case 'bool':
      return integerText(value);
    case 'float':
      return formatFloatSql(Number(value));
    case 'mva':
      return mvaText(value);
    case 'string':
      return String(value);
    case 'json':
      return printedJson(String(value));
  }
}

/**
 * One cell as `/sql?mode=raw` and `/cli_json` write it into `data`: numbers unquoted (floats as
 * PrintVarFloat text, 64-bit integers exact); MVA and JSON attributes as strings, as Manticore's
 * JSON row buffer receives them from the SQL layer.
 */
export function cellToRawJson(value: Cell, kind: CellKind): JsonOut {
  if (value === null || value === undefined) return null;
  switch (kind) {
    case 'bigint':
    case 'uint':
    case 'timestamp':
    case 'bool':
      return new RawJson(integerText(value));
    case 'float':
      return floatJson(Number(value));
    case 'mva':
      return mvaText(value);
    case 'string':
      return String(value);
    case 'json':
      return printedJson(String(value));
  }
}

/** One attribute as `_source` in `/search` and `/sql` hits: bool true/false, MVA an array, JSON inline. */
export function cellToSourceJson(value: Cell, kind: CellKind): JsonOut {
  if (value === null || value === undefined) return null;
  switch (kind) {
    case 'bigint':
    case 'uint':
    case 'timestamp':
      return new RawJson(integerText(value));
    case 'bool':
      return Number(value) !== 0;
    case 'float':
      return floatJson(Number(value));
    case 'mva':
      return Array.isArray(value) ? value.map((v) => new RawJson(v.toString())) : [];
    case 'json':
      return value === '' ? null : new RawJson(printedJson(String(value)));
    case 'string':
      return String(value);
  }
}

/** Column type names of `/cli_json` and `/sql?mode=raw` (Manticore's MySQL column types). */
export function mysqlTypeName(kind: CellKind): 'long long' | 'long' | 'float' | 'string' {
  switch (kind) {
    case 'bigint':
      return 'long long';
    case 'uint':
    case 'timestamp':
    case 'bool':
      return 'long';
    case 'float':
      return 'float';
    default:
      return 'string';
  }
}

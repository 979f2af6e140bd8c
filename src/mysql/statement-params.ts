/**
 * Prepared statements as text: the `?` placeholders of a query (outside quotes and comments), binary
 * parameter values of COM_STMT_EXECUTE decoded to SQL literals, and the query with them substituted.
 */
import { PayloadReader, ProtocolError } from './payload-reader.js';

/** Binary parameter types (MySQL enum_field_types) that carry a fixed-width number. */
const T = {
  DECIMAL: 0x00, TINY: 0x01, SHORT: 0x02, LONG: 0x03, FLOAT: 0x04, DOUBLE: 0x05, NULL: 0x06,
  TIMESTAMP: 0x07, LONGLONG: 0x08, INT24: 0x09, DATE: 0x0a, TIME: 0x0b, DATETIME: 0x0c, YEAR: 0x0d,
} as const;
const UNSIGNED_BIT = 0x8000;

/** The query split at its placeholders: parts.length === placeholders + 1. */
export function splitPlaceholders(sql: string): string[] {
  const parts: string[] = [];
  let start = 0;
  let i = 0;
  while (i < sql.length) {
    const ch = sql[i]!;
    if (ch === "'" || ch === '"' || ch === '`') {
      i = skipQuoted(sql, i, ch);
    } else if (ch === '/' && sql[i + 1] === '*') {
      const end = sql.indexOf('*/', i + 2);
      i = end < 0 ? sql.length : end + 2;
    } else if ((ch === '-' && sql[i + 1] === '-') || ch === '#') {
      const end = sql.indexOf('\n', i);
      i = end < 0 ? sql.length : end + 1;
    } else if (ch === '?') {
      parts.push(sql.slice(start, i));
      start = ++i;
    } else {
      i++;
    }
  }
  parts.push(sql.slice(start));
  return parts;
}

function skipQuoted(sql: string, open: number, quote: string): number {
  let i = open + 1;
  while (i < sql.length) {
    const ch = sql[i]!;
    if (ch === '\\' && quote !== '`') i += 2;
    else if (ch === quote) return i + 1;
    else i++;
  }
  return i;
}

/** A string as a SphinxQL literal: single quotes, backslash escapes. */
export function quoteString(s: string): string {
  return `'${s.replace(/[\\']/g, (c) => `\\${c}`).replace(/\0/g, '\\0')}'`;
}

function numberText(v: number): string {
  return Number.isInteger(v) && Math.abs(v) < 1e21 ? v.toFixed(0) : String(v);
}

const pad = (n: number, w = 2) => String(n).padStart(w, '0');

/** DATE / DATETIME / TIMESTAMP / TIME values as quoted text. */
function temporalText(r: PayloadReader, type: number): string {
  const len = r.u8();
  const b = r.bytes(len);
  if (type === T.TIME) {
    if (len === 0) return quoteString('00:00:00');
    const days = b.readUInt32LE(1);
    const h = days * 24 + b[5]!;
    return quoteString(`${b[0] ? '-' : ''}${pad(h)}:${pad(b[6]!)}:${pad(b[7]!)}`);
  }
  if (len === 0) return quoteString('0000-00-00 00:00:00');
  const date = `${pad(b.readUInt16LE(0), 4)}-${pad(b[2]!)}-${pad(b[3]!)}`;
  if (len < 7 || type === T.DATE) return quoteString(date);
  const micros = len >= 11 ? b.readUInt32LE(7) : 0;
  return quoteString(`${date} ${pad(b[4]!)}:${pad(b[5]!)}:${pad(b[6]!)}${micros ? `.${pad(micros, 6)}` : ''}`);
}

/** One binary value as SQL text. */
export function readParamValue(r: PayloadReader, typeWord: number): string {
  const type = typeWord & 0xff;
  const unsigned = (typeWord & UNSIGNED_BIT) !== 0;
  switch (type) {
    case T.NULL: return 'NULL';
    case T.TINY: { const v = r.u8(); return String(unsigned ? v : (v << 24) >> 24); }
    case T.SHORT: case T.YEAR: { const v = r.u16(); return String(unsigned ? v : (v << 16) >> 16); }
    case T.LONG: case T.INT24: { const v = r.u32(); return String(unsigned ? v : v | 0); }
    case T.LONGLONG: { const v = r.u64(); return String(unsigned ? v : BigInt.asIntN(64, v)); }
    case T.FLOAT: return numberText(r.bytes(4).readFloatLE(0));
    case T.DOUBLE: return numberText(r.bytes(8).readDoubleLE(0));
    case T.DATE: case T.DATETIME: case T.TIMESTAMP: case T.TIME: return temporalText(r, type);
    case T.DECIMAL: case 0xf6: {
      const text = r.lenencBytes().toString('utf8');
      if (!/^[-+]?\d*\.?\d*(e[-+]?\d+)?$/i.test(text)) throw new ProtocolError('bad decimal parameter');
      return text;
    }
    default: return quoteString(r.lenencBytes().toString('utf8'));
  }
}

/** The query with each placeholder replaced by its value's text. */
export function substitute(parts: string[], values: string[]): string {
  let out = parts[0]!;
  for (let i = 1; i < parts.length; i++) out += values[i - 1] + parts[i]!;
  return out;
}

/** OK, ERR and EOF packets and text / binary result sets, written into a PacketWriter. */
import { cellToSqlText, formatFloatExact } from '../engine/values/cell-format.js';
import type { Cell, CellKind, ResultColumn, RowsResult } from '../engine/result.js';
import { CHARSET_UTF8, ColumnType, UNSIGNED_FLAG } from './constants.js';
import type { PacketWriter } from './packet-writer.js';

/**
 * Positional, not a fields object: the handshake's and PING's OK ({ status }) and a statement's (every
 * field) were objects of two maps, and each burst of new connections deoptimized the statement path's
 * writeOk ('wrong map' at f.lastInsertId, --trace-deopt under insert-ab).
 */
export function writeOk(w: PacketWriter, status: number, affected = 0, lastInsertId: bigint = 0n, warnings = 0): void {
  w.begin().u8(0x00).lenenc(affected).lenenc(lastInsertId).u16(status).u16(warnings).end();
}

export function writeErr(w: PacketWriter, errno: number, sqlState: string, message: string): void {
  w.begin().u8(0xff).u16(errno).text('#').text(sqlState).text(message).end();
}

export function writeEof(w: PacketWriter, status: number, warnings = 0): void {
  w.begin().u8(0xfe).u16(warnings).u16(status).end();
}

interface ColumnShape {
  type: number;
  length: number;
  flags: number;
}

/** Wire type of a result column (spec section 8: long long, long, float, string). */
export function columnShape(kind: CellKind): ColumnShape {
  switch (kind) {
    case 'bigint': return { type: ColumnType.LONGLONG, length: 20, flags: 0 };
    case 'uint': case 'timestamp': case 'bool': return { type: ColumnType.LONG, length: 11, flags: UNSIGNED_FLAG };
    case 'float': return { type: ColumnType.FLOAT, length: 20, flags: 0 };
    default: return { type: ColumnType.STRING, length: 255, flags: 0 };
  }
}

/** A Column Definition 41 packet; COM_FIELD_LIST adds an (empty) default value. */
export function writeColumn(w: PacketWriter, col: ResultColumn, table = '', forFieldList = false): void {
  const s = columnShape(col.kind);
  w.begin().lenencText('def').lenencText('').lenencText(table).lenencText(table).lenencText(col.name).lenencText(col.name);
  w.u8(0x0c).u16(CHARSET_UTF8).u32(s.length).u8(s.type).u16(s.flags).u8(0).u16(0);
  if (forFieldList) w.u8(0xfb);
  w.end();
}

function writeHeader(w: PacketWriter, columns: ResultColumn[], status: number): void {
  w.begin().lenenc(columns.length).end();
  for (const c of columns) writeColumn(w, c);
  writeEof(w, status);
}

/** A text-protocol result set: every value as text, NULL as 0xfb. */
export function writeTextResultSet(w: PacketWriter, r: RowsResult, status: number, endStatus: number): void {
  writeHeader(w, r.columns, status);
  const kinds = r.columns.map((c) => c.kind);
  for (const row of r.rows) {
    w.begin();
    for (let i = 0; i < kinds.length; i++) {
      const v = row[i] ?? null;
      const text = r.exactFloats && kinds[i] === 'float' && v !== null ? formatFloatExact(Number(v)) : cellToSqlText(v, kinds[i]!);
      if (text === null) w.u8(0xfb);
      else w.lenencText(text);
    }
    w.end();
  }
  writeEof(w, endStatus, r.warning ? 1 : 0);
}

/** An integer cell as a number; anything unreadable as 0 rather than a thrown RangeError mid-reply. */
function finiteInt(value: Cell): number {
  const n = Math.trunc(Number(value));
  return Number.isFinite(n) ? n : 0;
}

function binaryValue(w: PacketWriter, value: Cell, kind: CellKind): void {
  switch (kind) {
    case 'bigint':
      w.u64(typeof value === 'bigint' ? value : BigInt(finiteInt(value)));
      return;
    case 'uint': case 'timestamp': case 'bool':
      w.u32(finiteInt(value));
      return;
    case 'float': {
      const b = Buffer.allocUnsafe(4);
      b.writeFloatLE(Number(value));
      w.bytes(b);
      return;
    }
    default:
      w.lenencText(cellToSqlText(value, kind) ?? '');
  }
}

/** A binary-protocol result set (COM_STMT_EXECUTE): a NULL bitmap with offset 2, then typed values. */
export function writeBinaryResultSet(w: PacketWriter, r: RowsResult, status: number, endStatus: number): void {
  writeHeader(w, r.columns, status);
  const kinds = r.columns.map((c) => c.kind);
  const bitmap = Buffer.alloc((kinds.length + 7 + 2) >> 3);
  for (const row of r.rows) {
    bitmap.fill(0);
    kinds.forEach((_, i) => {
      if (row[i] === null || row[i] === undefined) bitmap[(i + 2) >> 3]! |= 1 << ((i + 2) & 7);
    });
    w.begin().u8(0x00).bytes(bitmap);
    kinds.forEach((kind, i) => {
      const v = row[i];
      if (v !== null && v !== undefined) binaryValue(w, v, kind);
    });
    w.end();
  }
  writeEof(w, endStatus, r.warning ? 1 : 0);
}

/** A connection's prepared statements: COM_STMT_PREPARE / EXECUTE / SEND_LONG_DATA / RESET / CLOSE. */
import { PayloadReader, ProtocolError } from './payload-reader.js';
import { quoteString, readParamValue, splitPlaceholders, substitute } from './statement-params.js';

/** Statements one connection may keep open (MySQL's max_prepared_stmt_count default is 16382). */
export const MAX_STATEMENTS_PER_CONNECTION = 16_382;
/** Parameter type used until a client binds types: a length-encoded string. */
const DEFAULT_PARAM_TYPE = 0xfd;

export interface PreparedStatement {
  id: number;
  sql: string;
  parts: string[];
  paramCount: number;
  /** Types bound by the last EXECUTE that sent them (new_params_bound_flag); reused until rebound. */
  types: number[];
  /** Parameter data sent ahead with COM_STMT_SEND_LONG_DATA, by parameter number. */
  longData: Map<number, Buffer[]>;
}

export class StatementRegistry {
  #byId = new Map<number, PreparedStatement>();
  #nextId = 1;

  get size(): number {
    return this.#byId.size;
  }

  prepare(sql: string): PreparedStatement {
    if (this.#byId.size >= MAX_STATEMENTS_PER_CONNECTION) {
      throw new ProtocolError(`too many prepared statements (max ${MAX_STATEMENTS_PER_CONNECTION})`);
    }
    const parts = splitPlaceholders(sql);
    const paramCount = parts.length - 1;
    const stmt: PreparedStatement = {
      id: this.#nextId++, sql, parts, paramCount, types: new Array<number>(paramCount).fill(DEFAULT_PARAM_TYPE), longData: new Map(),
    };
    this.#byId.set(stmt.id, stmt);
    return stmt;
  }

  get(id: number): PreparedStatement | undefined {
    return this.#byId.get(id);
  }

  close(id: number): void {
    this.#byId.delete(id);
  }

  /** COM_STMT_SEND_LONG_DATA: appends a chunk to one parameter. False for an unknown statement or parameter. */
  appendLongData(payload: Buffer): boolean {
    const r = new PayloadReader(payload, 1);
    const stmt = this.#byId.get(r.u32());
    const param = r.u16();
    if (!stmt || param >= stmt.paramCount) return false;
    const chunks = stmt.longData.get(param) ?? [];
    chunks.push(Buffer.from(r.rest()));
    stmt.longData.set(param, chunks);
    return true;
  }

  /** COM_STMT_EXECUTE: the statement and its query text with the parameter values substituted. */
  executeText(payload: Buffer): { stmt: PreparedStatement; sql: string } {
    const r = new PayloadReader(payload, 1);
    const stmt = this.#byId.get(r.u32());
    if (!stmt) throw new ProtocolError('unknown prepared statement');
    r.u8(); // cursor flags: results are always sent in full
    r.u32(); // iteration count, always 1
    if (stmt.paramCount === 0) return { stmt, sql: stmt.sql };
    const nulls = r.bytes((stmt.paramCount + 7) >> 3);
    if (r.u8() === 1) for (let i = 0; i < stmt.paramCount; i++) stmt.types[i] = r.u16();
    const values: string[] = [];
    for (let i = 0; i < stmt.paramCount; i++) {
      const long = stmt.longData.get(i);
      if (long) values.push(quoteString(Buffer.concat(long).toString('utf8')));
      else if (nulls[i >> 3]! & (1 << (i & 7))) values.push('NULL');
      else values.push(readParamValue(r, stmt.types[i]!));
    }
    stmt.longData.clear();
    return { stmt, sql: substitute(stmt.parts, values) };
  }
}

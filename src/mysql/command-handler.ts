/** The command phase: one client command in, one complete response (possibly empty) out. */
import type { Engine } from '../engine/engine.js';
import { metrics } from '../metrics/metrics.js';
import type { Result, ResultColumn } from '../engine/result.js';
import type { Session } from '../engine/session.js';
import { inTransaction } from '../engine/transaction/transaction.js';
import { asSearchError } from '../util/errors.js';
import { Command, ErrorCode, Status } from './constants.js';
import { OK_REPLY_BYTES, PacketWriter } from './packet-writer.js';
import { PayloadReader, ProtocolError } from './payload-reader.js';
import type { StatementRegistry } from './prepared-statements.js';
import { writeColumn, writeEof, writeErr, writeOk } from './responses.js';
import { writeResults } from './result-writer.js';

/** Server-wide counters that COM_STATISTICS reports. */
export interface ServerStats {
  startedAt: number;
  connections: number;
  questions: number;
}

export interface CommandContext {
  engine: Engine;
  session: Session;
  statements: StatementRegistry;
  stats: ServerStats;
  activityId?: number;
}

/** What the connection does after a command: keep going, or close (COM_QUIT). */
export interface CommandOutcome {
  reply?: Buffer;
  quit?: boolean;
}

export function sessionStatus(session: Session): number {
  return (session.autocommit ? Status.AUTOCOMMIT : 0) | (inTransaction(session) ? Status.IN_TRANS : 0);
}

/** Counts and starts `sql` on the engine (a throw comes back as the promise's rejection); ended() closes it. */
function begin(ctx: CommandContext, sql: string): Promise<Result[]> {
  ctx.stats.questions++;
  if (ctx.activityId !== undefined) metrics.begin(ctx.activityId, sql);
  try {
    return ctx.engine.execute(sql, ctx.session);
  } catch (e) {
    return Promise.reject(e);
  }
}

/** The statement's results, or its failure as one INTERNAL error result; the activity list hears it ended. */
function ended(ctx: CommandContext, results: Result[] | undefined, e?: unknown): Result[] {
  if (ctx.activityId !== undefined) metrics.end(ctx.activityId);
  return results ?? [{ kind: 'error', code: 'INTERNAL', message: asSearchError(e).message }];
}

function run(ctx: CommandContext, sql: string): Promise<Result[]> {
  return begin(ctx, sql).then((r) => ended(ctx, r), (e: unknown) => ended(ctx, undefined, e));
}

/** DESCRIBE types as result-column kinds, for COM_FIELD_LIST. */
function describeKind(type: string): ResultColumn['kind'] {
  if (type === 'bigint') return 'bigint';
  if (type === 'uint' || type === 'bool' || type === 'timestamp' || type.startsWith('uint:')) return 'uint';
  if (type === 'float') return 'float';
  return 'string';
}

async function fieldList(ctx: CommandContext, w: PacketWriter, payload: Buffer): Promise<void> {
  const table = new PayloadReader(payload, 1).nulText();
  if (!/^[A-Za-z0-9_]+$/.test(table)) {
    writeErr(w, ErrorCode.PARSE.errno, ErrorCode.PARSE.sqlState, `no such table '${table}'`);
    return;
  }
  const [r] = await run(ctx, `DESCRIBE ${table}`);
  if (!r || r.kind !== 'rows') {
    writeErr(w, ErrorCode.PARSE.errno, ErrorCode.PARSE.sqlState, r?.kind === 'error' ? r.message : `no such table '${table}'`);
    return;
  }
  for (const row of r.rows) writeColumn(w, { name: String(row[0]), kind: describeKind(String(row[1])) }, table, true);
  writeEof(w, sessionStatus(ctx.session));
}

function statistics(ctx: CommandContext, w: PacketWriter): void {
  const uptime = Math.max(1, Math.floor((Date.now() - ctx.stats.startedAt) / 1000));
  const qps = (ctx.stats.questions / uptime).toFixed(3);
  w.begin().text(`Uptime: ${uptime}  Threads: ${ctx.stats.connections}  Questions: ${ctx.stats.questions}  ` +
    `Slow queries: 0  Opens: 0  Flush tables: 0  Open tables: 0  Queries per second avg: ${qps}`).end();
}

function prepare(ctx: CommandContext, w: PacketWriter, payload: Buffer): void {
  const stmt = ctx.statements.prepare(payload.toString('utf8', 1));
  // Result columns are only known when the statement runs; EXECUTE sends them, as Manticore does.
  w.begin().u8(0).u32(stmt.id).u16(0).u16(stmt.paramCount).u8(0).u16(0).end();
  if (stmt.paramCount === 0) return;
  for (let i = 0; i < stmt.paramCount; i++) writeColumn(w, { name: '?', kind: 'string' });
  writeEof(w, sessionStatus(ctx.session));
}

async function execute(ctx: CommandContext, w: PacketWriter, payload: Buffer): Promise<void> {
  const { sql } = ctx.statements.executeText(payload);
  const results = await run(ctx, sql);
  writeResults(w, results, sessionStatus(ctx.session), true);
}

/**
 * COM_QUERY, the hot command: the reply's buffer is made once the results are known, sized for an OK
 * alone (an INSERT's, ~20 bytes) when that is all: 2048 bytes of Node's 8 KiB pool per INSERT took a new
 * pool (native memory for the GC to track) every four statements. One promise of its own (the engine's
 * results handed straight to the reply), not an async frame per layer: with the connection's, two
 * promises a statement where there were six (allocations and microtask turns per single-row INSERT).
 */
function query(ctx: CommandContext, payload: Buffer, seq: number): Promise<CommandOutcome> {
  let started: Promise<Result[]>;
  try {
    started = begin(ctx, payload.toString('utf8', 1));
  } catch (e) {
    return Promise.resolve({ reply: errReply(seq, e) });
  }
  return started.then((r) => queryReply(ctx, seq, ended(ctx, r)), (e: unknown) => queryReply(ctx, seq, ended(ctx, undefined, e)));
}

function queryReply(ctx: CommandContext, seq: number, results: Result[]): CommandOutcome {
  try {
    const w = new PacketWriter((seq + 1) & 0xff, results.length === 1 && results[0]!.kind === 'ok' ? OK_REPLY_BYTES : undefined);
    writeResults(w, results, sessionStatus(ctx.session));
    return { reply: w.finish() };
  } catch (e) {
    return { reply: errReply(seq, e) };
  }
}

function errReply(seq: number, e: unknown): Buffer {
  const w = new PacketWriter((seq + 1) & 0xff);
  writeErr(w, ErrorCode.UNKNOWN_COM.errno, ErrorCode.UNKNOWN_COM.sqlState, e instanceof Error ? e.message : String(e));
  return w.finish();
}

/** Runs one command; protocol errors become ERR packets, the connection stays usable. */
export function handleCommand(ctx: CommandContext, payload: Buffer, seq: number): Promise<CommandOutcome> {
  const cmd = payload.length ? payload[0]! : -1;
  // COM_QUERY's promise is the caller's as it is: no async frame of this function's around it
  return cmd === Command.QUERY ? query(ctx, payload, seq) : otherCommand(ctx, payload, seq, cmd);
}

async function otherCommand(ctx: CommandContext, payload: Buffer, seq: number, cmd: number): Promise<CommandOutcome> {
  const w = new PacketWriter((seq + 1) & 0xff);
  try {
    switch (cmd) {
      case Command.QUIT: return { quit: true };
      case Command.PING: case Command.INIT_DB: writeOk(w, sessionStatus(ctx.session)); break;
      case Command.FIELD_LIST: await fieldList(ctx, w, payload); break;
      case Command.STATISTICS: statistics(ctx, w); break;
      case Command.SET_OPTION: writeEof(w, sessionStatus(ctx.session)); break;
      case Command.STMT_PREPARE: prepare(ctx, w, payload); break;
      case Command.STMT_EXECUTE: await execute(ctx, w, payload); break;
      case Command.STMT_SEND_LONG_DATA:
        // no reply by protocol, even for an unknown statement
        ctx.statements.appendLongData(payload);
        return {};
      case Command.STMT_CLOSE:
        ctx.statements.close(new PayloadReader(payload, 1).u32());
        return {};
      case Command.STMT_RESET: {
        const stmt = ctx.statements.get(new PayloadReader(payload, 1).u32());
        if (!stmt) throw new ProtocolError('unknown prepared statement');
        stmt.longData.clear();
        writeOk(w, sessionStatus(ctx.session));
        break;
      }
      default:
        writeErr(w, ErrorCode.UNKNOWN_COM.errno, ErrorCode.UNKNOWN_COM.sqlState, `unknown command (code=${cmd})`);
    }
  } catch (e) {
    return { reply: errReply(seq, e) };
  }
  return { reply: w.finish() };
}

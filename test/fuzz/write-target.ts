/**
 * The 'writes' target: writes to fz_r (a table only this target touches, one connection at a time) over
 * MySQL and HTTP, and SET statements. Its oracles: a write that is refused leaves the table exactly as
 * before (an md5 of DESC and SELECT * before and after), a SET that is refused leaves every variable as
 * before, the error is Manticore-shaped, and the server answers a trivial query after every input.
 */
import { createHash } from 'node:crypto';
import { checkHttpReply, checkMysqlReply, type MysqlReply } from './oracles.js';
import { EDGE_NUMBERS, number, text, type Rng } from './rng.js';
import { arg, newFeatureStatement, partialReplace } from './sql-gen-new.js';
import { WireClient } from './wire-client.js';

export const WRITE_SETUP = [
  'CREATE TABLE fz_r (title text, n int, b bigint, f float, s string, j json, m multi, m64 multi64, ts timestamp, ok bool)',
  "INSERT INTO fz_r (id, title, n, s, j, m) VALUES (1, 'one', 1, 'a', '{\"k\":1}', (1,2)), (2, 'two', 2, 'b', '[]', ()), (3, 'three', 3, '', '{}', (3))",
];
const COLUMNS = ['title', 'n', 'b', 'f', 's', 'j', 'm', 'm64', 'ts', 'ok'];

/** How many inputs were refused (and so checked for a changed state) and applied, over the process. */
export const writeStats = { refused: 0, applied: 0 };

export interface WriteInput {
  via: 'mysql' | 'http';
  /** SQL for MySQL; for HTTP the path and body. */
  sql?: string;
  path?: string;
  body?: string;
  /** Which state a refusal must leave alone. */
  guards: 'table' | 'variables';
}

/** A value for a column: right type, edge, or wrong. */
function value(r: Rng): string {
  if (r.chance(0.4)) return arg(r);
  return r.pick([number(r), `'${text(r).replace(/\\/g, '\\\\').replace(/'/g, "\\'")}'`, '(1,2,3)', `'{"a":${r.pick(EDGE_NUMBERS)}}'`, "'{bad'", 'NULL', '()', '-1', '1.5']);
}

function jsonValue(r: Rng): string {
  return r.pick([String(r.int(-5, 100)), r.pick(EDGE_NUMBERS.filter((n) => /^-?\d+(\.\d+)?(e\d+)?$/.test(n))), JSON.stringify(text(r)), '[1,2,-3]', '{"a":[{"b":null}]}', 'null', 'true', '[]', '{}', '"\\u0000"', '[[[[[1]]]]]', '"x"']);
}

function doc(r: Rng): string {
  const keys = Array.from({ length: r.count(4) }, () => r.pick([...COLUMNS, 'id', 'nosuch', '']));
  return `{${keys.map((k) => `${JSON.stringify(k)}:${jsonValue(r)}`).join(',')}}`;
}

const id = (r: Rng) => (r.chance(0.8) ? String(r.int(1, 12)) : r.pick(EDGE_NUMBERS.concat(['0', '-1', "'1'", 'NULL'])));

export function writeInput(r: Rng): WriteInput {
  switch (r.int(0, 9)) {
    case 0: case 1: return { via: 'mysql', sql: partialReplace(r, 'fz_r', COLUMNS), guards: 'table' };
    case 2: {
      const cols = Array.from({ length: r.int(1, 4) }, () => r.pick(COLUMNS));
      const row = () => `(${[id(r), ...cols.map(() => value(r))].join(', ')})`;
      return { via: 'mysql', sql: `${r.pick(['INSERT', 'REPLACE'])} INTO fz_r (id, ${cols.join(', ')}) VALUES ${Array.from({ length: r.int(1, 4) }, row).join(', ')}`, guards: 'table' };
    }
    case 3: return { via: 'mysql', sql: `UPDATE fz_r SET ${Array.from({ length: r.int(1, 3) }, () => `${r.pick([...COLUMNS, 'id', 'j.k', 'nosuch'])}=${value(r)}`).join(', ')} WHERE ${r.pick([`id=${id(r)}`, `id IN (${id(r)}, ${id(r)})`, 'id IN @x', `n ${r.pick(['>', '<', '='])} ${value(r)}`, 'MATCH(\'one\')', `${value(r)}`])}`, guards: 'table' };
    case 4: return { via: 'mysql', sql: `DELETE FROM fz_r WHERE ${r.pick([`id=${id(r)}`, `id IN (${id(r)}, ${id(r)})`, 'id IN @x', 'id IN @nosuch', `n=${value(r)}`, `REGEX(s, ${value(r)})`, 'ANY(x.k = 1 FOR x IN j)'])}`, guards: 'table' };
    case 5: return { via: 'http', path: `/${r.chance(0.9) ? 'fz_r' : 'cluster:fz_r'}/_update/${r.chance(0.8) ? String(r.int(1, 12)) : encodeURIComponent(r.pick(EDGE_NUMBERS.concat(['', 'x', '-1', '0'])))}`, body: r.chance(0.85) ? `{"doc":${doc(r)}}` : r.pick(['', '{}', '{"doc":[]}', '{"doc":null}', '{"doc":{}}', '[', '{"doc":' + doc(r)]), guards: 'table' };
    case 6: return { via: 'http', path: r.pick(['/insert', '/replace', '/update']), body: `{"table":"fz_r","id":${r.chance(0.8) ? String(r.int(1, 12)) : jsonValue(r)},"doc":${doc(r)}}`, guards: 'table' };
    case 7: return { via: 'mysql', sql: r.pick([`ALTER TABLE fz_r ${r.pick(['ADD COLUMN', 'DROP COLUMN'])} ${r.pick(['x1', 'x2', 'nosuch', 'id', ''])} ${r.pick(['int', 'text', 'nosuch', 'string attribute', ''])}`, `ALTER TABLE fz_r REBUILD SECONDARY${r.chance(0.3) ? ' x' : ''}`, `ALTER TABLE fz_r ${r.pick(['local', 'agent', 'min_infix_len', 'nosuch'])}=${value(r)}`]), guards: 'table' };
    default: return { via: 'mysql', sql: newFeatureStatement(r).replace(/^(?!SET)[\s\S]*$/, (s) => (r.chance(0.5) ? `SET GLOBAL @x = (${Array.from({ length: r.count(5) }, () => number(r)).join(',')})` : s)), guards: 'variables' };
  }
}

export function describeWriteInput(w: WriteInput): string {
  return w.via === 'mysql' ? w.sql! : `POST ${w.path} ${w.body}`;
}

async function mysqlQuery(client: WireClient, sql: string, deadline: number): Promise<MysqlReply> {
  client.write(Buffer.concat([Buffer.from([0x03]), Buffer.from(sql)]), 0);
  return client.response(deadline);
}

/** The answers' column and row packets, hashed: equal before and after means nothing changed. */
async function stateOf(client: WireClient, guards: WriteInput['guards'], deadline: number): Promise<string> {
  const queries = guards === 'table'
    ? ['DESC fz_r', 'SELECT * FROM fz_r ORDER BY id ASC LIMIT 1000 OPTION max_matches=1000']
    : ['SHOW VARIABLES', 'SHOW GLOBAL VARIABLES'];
  const h = createHash('md5');
  // EOF packets are left out: their status flags say whether the session is in a transaction, which a
  // refused statement under autocommit=0 starts (as MySQL's), not what the table holds
  for (const q of queries) for (const p of (await mysqlQuery(client, q, deadline)).packets) if (!(p[0] === 0xfe && p.length < 9)) h.update(p);
  return h.digest('hex');
}

async function httpPost(port: number, path: string, body: string, deadline: number): Promise<string> {
  const res = await fetch(`http://127.0.0.1:${port}${path}`, { method: 'POST', body, headers: { 'content-type': 'application/json' }, signal: AbortSignal.timeout(Math.max(1, deadline - Date.now())) });
  return `HTTP/1.1 ${res.status} x\r\ncontent-type: ${res.headers.get('content-type') ?? ''}\r\n\r\n${await res.text()}`;
}

/** Runs one input with its oracles: the violation, or undefined. */
export async function runWrite(client: WireClient, httpPort: number, w: WriteInput, deadline: number): Promise<string | undefined> {
  const before = await stateOf(client, w.guards, deadline);
  let refused: boolean;
  if (w.via === 'mysql' && w.sql!.length % 3 === 0) {
    // a third of the SQL goes over /sql?mode=raw: the same statement through the HTTP front end
    const raw = await httpPost(httpPort, '/sql?mode=raw', w.sql!, deadline);
    const bad = checkHttpReply(raw);
    if (bad) return bad;
    refused = !/^HTTP\/1\.1 2/.test(raw) || /"error":"[^"]/.test(raw);
  } else if (w.via === 'mysql') {
    const reply = await mysqlQuery(client, w.sql!, deadline);
    const bad = checkMysqlReply(reply);
    if (bad) return bad;
    refused = reply.packets.some((p) => p[0] === 0xff);
  } else {
    const raw = await httpPost(httpPort, w.path!, w.body!, deadline);
    const bad = checkHttpReply(raw);
    if (bad) return bad;
    refused = !/^HTTP\/1\.1 2/.test(raw);
  }
  // the server answers a trivial query after every input
  const probe = await mysqlQuery(client, 'SELECT 1', deadline);
  if (probe.packets[0]?.[0] === 0xff || probe.closed) return `SELECT 1 after the input: ${probe.closed ? 'connection closed' : probe.packets[0]!.subarray(9).toString()}`;
  if (refused) writeStats.refused++;
  else writeStats.applied++;
  if (refused) {
    const after = await stateOf(client, w.guards, deadline);
    if (after !== before) return `refused ${w.guards === 'table' ? 'write changed fz_r' : 'SET changed a variable'} (state ${before.slice(0, 8)} -> ${after.slice(0, 8)})`;
  }
  return undefined;
}

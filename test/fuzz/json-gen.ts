/**
 * Bodies for every JSON endpoint: mostly valid shapes with random values, then wrong types,
 * missing and extra keys, huge and 64-bit edge numbers, deep nesting and invalid UTF-8.
 */
import { EDGE_NUMBERS, text, urlEncode, word, type Rng } from './rng.js';
import { session27Http } from './json-gen-27.js';
import { matchQuery, sqlStatement, TABLES } from './sql-gen.js';

export interface HttpInput {
  method: 'GET' | 'POST' | 'PUT' | 'DELETE';
  path: string;
  body: Buffer;
  contentType?: string;
}

/** Any JSON value, sometimes with raw number text that JSON.stringify cannot make. */
function value(r: Rng, depth = 0): string {
  if (depth > 3 || r.chance(0.5)) {
    switch (r.int(0, 5)) {
      case 0: return r.pick(EDGE_NUMBERS.filter((n) => /^-?\d+(\.\d+)?(e\d+)?$/.test(n)));
      case 1: return JSON.stringify(text(r));
      case 2: return r.pick(['true', 'false', 'null']);
      case 3: return JSON.stringify(matchQuery(r));
      default: return String(r.int(-3, 100));
    }
  }
  if (r.chance(0.5)) return `[${Array.from({ length: r.count(4) }, () => value(r, depth + 1)).join(',')}]`;
  return obj(r, Array.from({ length: r.count(3) }, () => [word(r), value(r, depth + 1)]), depth + 1);
}

function obj(r: Rng, entries: [string, string][], _depth = 0): string {
  if (r.chance(0.1)) entries.push([r.pick(['limit', 'extra', '_source', 'options', word(r)]), value(r, 3)]);
  if (r.chance(0.1) && entries.length) entries.splice(r.int(0, entries.length - 1), 1);
  return `{${entries.map(([k, v]) => `${JSON.stringify(k)}:${v}`).join(',')}}`;
}

function query(r: Rng, depth = 0): string {
  if (depth > 2 || r.chance(0.5)) {
    const k = r.pick(['match', 'match_phrase', 'query_string', 'match_all', 'equals', 'range', 'in', 'nosuch']);
    if (k === 'query_string') return obj(r, [[k, r.chance(0.8) ? JSON.stringify(matchQuery(r)) : value(r)]]);
    if (k === 'match_all') return obj(r, [[k, r.chance(0.8) ? '{}' : value(r)]]);
    if (k === 'range') return obj(r, [[k, obj(r, [[r.pick(['n', 'f', 'id']), obj(r, [[r.pick(['gt', 'gte', 'lt', 'lte']), value(r, 3)]])]])]]);
    return obj(r, [[k, obj(r, [[r.pick(['title', 'body', '*', 'n', 'title,body', '_all']), r.chance(0.8) ? JSON.stringify(matchQuery(r)) : value(r)]])]]);
  }
  const clauses = Array.from({ length: r.int(1, 3) }, () => [r.pick(['must', 'should', 'must_not', 'filter']), `[${Array.from({ length: r.count(3) }, () => query(r, depth + 1)).join(',')}]`] as [string, string]);
  return obj(r, [['bool', obj(r, clauses)]]);
}

function deep(r: Rng): string {
  const n = r.int(100, 20_000);
  return r.chance(0.5) ? '['.repeat(n) + ']'.repeat(n) : '{"a":'.repeat(n) + '1' + '}'.repeat(n);
}

const table = (r: Rng) => JSON.stringify(r.chance(0.9) ? r.pick(TABLES) : text(r));
const doc = (r: Rng) => obj(r, [['title', value(r, 3)], ['n', value(r, 3)], ['j', value(r, 1)]]);
const id = (r: Rng) => r.chance(0.8) ? String(r.int(1, 50)) : value(r, 3);

const BODIES: [string, (r: Rng) => string][] = [
  ['/search', (r) => obj(r, [['table', table(r)], ['query', query(r)], ['limit', value(r, 3)], ['highlight', r.chance(0.3) ? value(r, 2) : '{}']])],
  ['/search', (r) => obj(r, [['index', table(r)], ['query', query(r)], ['sort', value(r, 1)], ['_source', value(r, 1)], ['offset', value(r, 3)]])],
  ['/insert', (r) => obj(r, [['table', table(r)], ['id', id(r)], ['doc', doc(r)]])],
  ['/replace', (r) => obj(r, [['table', table(r)], ['id', id(r)], ['doc', doc(r)]])],
  ['/update', (r) => obj(r, [['table', table(r)], ['id', id(r)], ['doc', doc(r)]])],
  ['/update', (r) => obj(r, [['table', table(r)], ['query', query(r)], ['doc', doc(r)]])],
  ['/delete', (r) => obj(r, [['table', table(r)], [r.pick(['id', 'query']), r.chance(0.5) ? id(r) : query(r)]])],
  ['/bulk', (r) => Array.from({ length: r.int(1, 4) }, () => obj(r, [[r.pick(['insert', 'replace', 'update', 'delete', 'index', 'create']), obj(r, [['table', table(r)], ['id', id(r)], ['doc', doc(r)]])]])).join(r.chance(0.9) ? '\n' : '')],
];

/** POST /<table>/_update/<id> (session 26): tables, ids and bodies valid, at the edges and malformed. */
function esUpdate(r: Rng): HttpInput {
  const t = r.chance(0.85) ? r.pick([...TABLES, 'fz_d', 'cluster:fz']) : urlEncode(text(r));
  const idPart = r.chance(0.7) ? String(r.int(1, 12)) : urlEncode(r.pick(EDGE_NUMBERS.concat(['', 'abc', '-1', '0', '1.5', '%00', '日本'])));
  const body = r.chance(0.8) ? obj(r, [['doc', r.chance(0.8) ? doc(r) : value(r, 2)]]) : r.chance(0.5) ? value(r) : deep(r);
  return { method: r.chance(0.95) ? 'POST' : r.pick(['GET', 'PUT', 'DELETE'] as const), path: `/${t}/_update/${idPart}${r.chance(0.05) ? '/x' : ''}`, body: Buffer.from(body), contentType: 'application/json' };
}

/** One input of the JSON target: a body for one endpoint, or SQL over /sql and /cli. */
export function httpInput(r: Rng): HttpInput {
  if (r.chance(0.2)) {
    const sql = sqlStatement(r);
    const path = r.pick(['/sql', '/sql?mode=raw', '/cli', '/cli_json', '/sql?mode=raw&query=' + urlEncode(sql)]);
    const body = r.chance(0.5) && path.startsWith('/sql') && !path.includes('raw') ? 'query=' + urlEncode(sql) : sql;
    return { method: 'POST', path, body: Buffer.from(body) };
  }
  if (r.chance(0.1)) return esUpdate(r);
  // session 27's endpoints and the rarer members of the JSON bodies (json-gen-27.ts)
  if (r.chance(0.3)) return session27Http(r);
  const [path, make] = r.pick(BODIES);
  let body = Buffer.from(r.chance(0.02) ? deep(r) : make(r));
  if (r.chance(0.05)) body = Buffer.concat([body.subarray(0, r.int(0, body.length)), r.bytes(r.int(1, 4)), body.subarray(r.int(0, body.length))]);
  if (r.chance(0.05)) body = body.subarray(0, r.int(0, body.length));
  const method = r.chance(0.95) ? 'POST' : r.pick(['GET', 'PUT', 'DELETE'] as const);
  return { method, path: r.chance(0.97) ? path : r.pick(['/nosuch', '/search/', '/json/search', '/_bulk', '/sql?mode=nope']), body, contentType: r.chance(0.9) ? 'application/json' : r.pick(['text/plain', 'application/x-ndjson', 'multipart/form-data', 'x']) };
}

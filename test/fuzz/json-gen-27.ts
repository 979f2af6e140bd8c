/**
 * HTTP JSON bodies of session 27 and the endpoints' rarer members for fuzzing: POST /autocomplete,
 * /search with options.fuzzy, aggs, highlight options, knn-like junk, /bulk with malformed NDJSON lines,
 * and /update, /delete, /replace with values valid, at the edges and malformed (huge and negative
 * numbers, empty, Unicode, NUL, deep nesting, very long lists, the wrong type).
 */
import { EDGE_NUMBERS, text, word, type Rng } from './rng.js';
import type { HttpInput } from './json-gen.js';

const s = (v: unknown): string => JSON.stringify(v);

/** A JSON value of any type, or raw number text, or a long list, or deep nesting. */
function junk(r: Rng): string {
  switch (r.int(0, 9)) {
    case 0: return r.pick(EDGE_NUMBERS.filter((n) => /^-?\d+(\.\d+)?(e\d+)?$/.test(n)));
    case 1: return s(text(r));
    case 2: return r.pick(['true', 'false', 'null', '{}', '[]', '""', '"\\u0000"', '"a\\u0000b"', '"\\ud800"', '-0', '1e-400']);
    case 3: return `[${Array.from({ length: r.chance(0.1) ? r.int(1000, 20_000) : r.int(0, 5) }, () => r.int(-3, 1000)).join(',')}]`;
    case 4: if (r.chance(0.7)) return '[]'; { const n = r.int(10, 3000); return '{"a":'.repeat(n) + '1' + '}'.repeat(n); }
    case 5: return s(r.pick(['title', 'n', 'id', 'nosuch', 'j.a', '*', '', '日本', 'tags', 's', 'f']));
    default: return String(r.int(-3, 30));
  }
}

const field = (r: Rng) => r.pick(['title', 'body', 'n', 'f', 'id', 'tags', 's', 'j', 'j.a', 'nosuch', '', '*', '日本']);
const table = (r: Rng) => s(r.chance(0.9) ? r.pick(['fz', 'fz_sg', 'fz_d', 'fz_pq', 'missing_t']) : text(r));
const maybe = (r: Rng, v: () => string) => (r.chance(0.85) ? v() : junk(r));
const members = (r: Rng, entries: [string, () => string][]) => `{${entries.filter(() => r.chance(0.85)).map(([k, v]) => `${s(k)}:${maybe(r, v)}`).join(',')}}`;

function autocomplete(r: Rng): string {
  const options = members(r, [
    ['fuzziness', () => String(r.int(-1, 3))], ['prepend', () => r.pick(['true', 'false', '0', '1', '"1"'])], ['append', () => r.pick(['true', 'false', '1'])],
    ['expansion_len', () => String(r.int(-1, 21))], ['layouts', () => r.pick(['["us","ru"]', '"us,ru"', '[]', '"nosuch"', '[1,2]', '""', s(Array(r.int(1, 300)).fill('us'))])],
    ['preserve', () => r.pick(['true', 'false'])], ['force_bigrams', () => r.pick(['true', '1', '0'])], ['nosuch', () => '1'],
  ]);
  return members(r, [['table', () => table(r)], ['query', () => s(r.pick(['mark', 'hel', 'mraket', 'run', '', 'a'.repeat(r.int(1, 2000)), text(r)]))], ['options', () => options]]);
}

function match(r: Rng): string {
  const k = r.pick(['match', 'query_string', 'match_phrase', 'match_all', 'bool']);
  if (k === 'query_string') return `{"query_string":${s(r.pick(['mark', 'mraket', 'hel*', '@title mark', '$#@!', text(r)]))}}`;
  if (k === 'match_all') return '{"match_all":{}}';
  if (k === 'bool') return `{"bool":{"${r.pick(['must', 'should', 'must_not'])}":[${match(r)}]}}`;
  return `{"${k}":{"${field(r)}":${r.chance(0.8) ? s(r.pick(['mark', 'mraket', 'helo', 'marker hel', text(r)])) : junk(r)}}}`;
}

function aggs(r: Rng): string {
  const one = (): string => {
    const kind = r.pick(['terms', 'terms', 'histogram', 'range', 'date_histogram', 'date_range', 'composite', 'min', 'nosuch']);
    const body = members(r, [['field', () => s(field(r))], ['size', () => String(r.int(-1, 30))], ['interval', () => String(r.int(-1, 10))],
      ['ranges', () => `[${Array.from({ length: r.int(0, 3) }, () => members(r, [['from', () => String(r.int(-5, 5))], ['to', () => String(r.int(-5, 5))]])).join(',')}]`],
      ['calendar_interval', () => s(r.pick(['day', 'month', 'x']))], ['sources', () => '[{"a":{"terms":{"field":"n"}}}]']]);
    return `${s(r.pick(['a', 'b', '', '日本', 'x'.repeat(300)]))}:{${s(kind)}:${body}${r.chance(0.1) ? `,"aggs":{${one()}}` : ''}}`;
  };
  return `{${Array.from({ length: r.chance(0.05) ? r.int(50, 500) : r.int(0, 3) }, one).join(',')}}`;
}

function highlight(r: Rng): string {
  return members(r, [
    ['fields', () => r.pick(['["title"]', '{"title":{}}', '["nosuch"]', '"title"', '[]', `{"title":{"limit":${r.int(-1, 10)}}}`])],
    ['limit', () => String(r.pick([-1, 0, 1, 2147483648, 100]))], ['around', () => String(r.int(-1, 10))], ['pre_tags', () => s(r.pick(['<b>', '', '\0', '日本']))],
    ['post_tags', () => s('</b>')], ['number_of_fragments', () => String(r.int(-1, 5))], ['html_strip_mode', () => s(r.pick(['strip', 'none', 'x']))],
    ['encoder', () => s(r.pick(['default', 'html', 'x']))], ['highlight_query', () => match(r)], ['limit_words', () => String(r.int(-1, 5))],
  ]);
}

function knnJunk(r: Rng): string {
  const vec = () => `[${Array.from({ length: r.chance(0.1) ? r.int(1000, 10_000) : r.int(0, 4) }, () => r.pick(['0.5', '1', '-1', '1e309', 'null', '"x"'])).join(',')}]`;
  return members(r, [['field', () => s(field(r))], ['query_vector', vec], ['query', vec], ['k', () => String(r.pick([-1, 0, 5, 1e12]))], ['ef', () => '10'], ['filter', () => match(r)]]);
}

function search(r: Rng): string {
  const options = members(r, [
    ['fuzzy', () => r.pick(['true', 'false', '1', '0', '"1"', '2', 'null'])], ['distance', () => String(r.pick([-1, 0, 1, 2, 3, 100, 1e300]))],
    ['preserve', () => r.pick(['true', 'false', '1'])], ['layouts', () => r.pick(['["us","ru"]', '"us,ru"', '[]', '"nosuch"', '[1]', '""'])],
    ['force_bigrams', () => r.pick(['true', '0'])], ['max_matches', () => String(r.int(-1, 100))], ['nosuch', () => '1'],
  ]);
  return members(r, [['table', () => table(r)], ['query', () => match(r)], ['options', () => options], ['aggs', () => aggs(r)], ['highlight', () => highlight(r)],
    ['knn', () => knnJunk(r)], ['limit', () => String(r.int(-1, 20))], ['_source', () => r.pick(['["id"]', 'false', '"title"', '{"includes":["t*"]}'])]]);
}

/** A /bulk body: NDJSON lines valid, truncated, blank, wrong types, not JSON, or one of many. */
function bulk(r: Rng): string {
  const line = (): string => {
    const op = r.pick(['insert', 'replace', 'update', 'delete', 'index', 'create', 'nosuch']);
    const good = `{"${op}":{"table":${table(r)},"id":${r.chance(0.8) ? r.int(1, 60) : junk(r)},${op === 'delete' && r.chance(0.5) ? `"query":${match(r)}` : `"doc":{"title":${r.chance(0.7) ? s(word(r)) : junk(r)},"n":${r.chance(0.7) ? r.int(-5, 100) : junk(r)}}`}}}`;
    switch (r.int(0, 9)) {
      case 0: return good.slice(0, r.int(0, good.length));
      case 1: return r.pick(['', ' ', '\t', '{}', '[]', 'null', '1', '"x"', '{"insert":null}', '{"insert":{}}', '{"insert":[]}', '\0', '\ufeff{}', '{"index":{"_index":"fz","_id":1}}']);
      case 2: return `${good} ${good}`;
      case 3: return junk(r);
      default: return good;
    }
  };
  const n = r.chance(0.05) ? r.int(100, 3000) : r.int(1, 6);
  return Array.from({ length: n }, line).join(r.pick(['\n', '\n', '\r\n', '\n\n', '']));
}

function modify(r: Rng, path: string): string {
  const doc = members(r, [['title', () => s(word(r))], ['n', () => String(r.int(-5, 100))], ['f', () => '1.5'], ['tags', () => '[1,2]'], ['j', () => '{"a":1}'], ['s', () => s(text(r))], ['nosuch', () => '1'], ['id', () => '3']]);
  const where = r.chance(0.5) ? ['id', () => String(r.chance(0.8) ? r.int(1, 60) : r.pick([0, -1, 2 ** 64, 1e300]))] as [string, () => string] : ['query', () => match(r)] as [string, () => string];
  return members(r, [['table', () => table(r)], where, ...(path === '/delete' ? [] : [['doc', () => doc] as [string, () => string]])]);
}

/** One input: an endpoint and its body (the content type usually JSON, /bulk's usually NDJSON). */
export function session27Http(r: Rng): HttpInput {
  const path = r.pick(['/autocomplete', '/autocomplete', '/search', '/search', '/bulk', '/update', '/delete', '/replace']);
  const body = path === '/autocomplete' ? autocomplete(r) : path === '/search' ? search(r) : path === '/bulk' ? bulk(r) : modify(r, path);
  const contentType = path === '/bulk' ? r.pick(['application/x-ndjson', 'application/json', 'text/plain']) : r.chance(0.9) ? 'application/json' : 'text/plain';
  return { method: r.chance(0.97) ? 'POST' : r.pick(['GET', 'PUT', 'DELETE'] as const), path, body: Buffer.from(body), contentType };
}

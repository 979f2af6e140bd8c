// Every full-text query in the shared conformance cases must parse, and the failing ones must fail
// with the case's message. Reads ../shared/conformance/cases in place (read-only data).
import { readFileSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { boolOf, finishQuery, fullTextNode, isFullTextProperty } from '../../../src/query/json-query.js';
import type { QueryNode } from '../../../src/query/ast.js';
import { parseQuery } from '../../../src/query/parse-query.js';

const CASES = join(import.meta.dirname, '../../../../shared/conformance/cases');

interface Case { id: string; request: unknown; expect: Record<string, unknown>; server_config?: Record<string, number>; source: string }

const cases: Case[] = readdirSync(CASES).filter((f) => f.endsWith('.jsonl')).flatMap((f) =>
  readFileSync(join(CASES, f), 'utf8').split('\n').filter(Boolean).map((l) => JSON.parse(l) as Case));

const steps = (c: Case): Record<string, unknown>[] => (Array.isArray(c.request) ? c.request : [c.request]) as Record<string, unknown>[];

/** SQL string literal body to its value (backslash escapes). */
const unquote = (s: string): string => s.replace(/\\(.)/g, '$1');

/** MATCH('...') texts and the query argument of CALL SNIPPETS. */
function sqlQueries(sql: string): string[] {
  const out = [...sql.matchAll(/match\s*\(\s*'((?:[^'\\]|\\.)*)'/gi)].map((m) => unquote(m[1]!));
  const snip = /call\s+snippets\s*\(\s*(?:\((?:[^)'\\]|'(?:[^'\\]|\\.)*')*\)|'(?:[^'\\]|\\.)*')\s*,\s*'[^']*'\s*,\s*'((?:[^'\\]|\\.)*)'/i.exec(sql);
  if (snip) out.push(unquote(snip[1]!));
  return out;
}

// test_413 runs with not_terms_only_allowed = 1 in its searchd section; its cases do not say so.
const ALLOW_ONLY_NOT = (c: Case): boolean => c.server_config?.not_terms_only_allowed === 1 || c.source.includes('test_413');

describe('SQL and snippet queries of the conformance cases', () => {
  const sqlCases = cases.flatMap((c) => steps(c).flatMap((s) => (typeof s.sql === 'string' ? sqlQueries(s.sql).map((q) => ({ c, q })) : [])));

  it('finds the queries', () => {
    expect(sqlCases.length).toBeGreaterThan(150);
  });

  it.each(sqlCases.map(({ c, q }) => [c.id, q, c] as const))('%s: %s', (_id, q, c) => {
    const expected = typeof c.expect.error === 'string' ? c.expect.error : undefined;
    const run = (): unknown => parseQuery(q, { notTermsOnlyAllowed: ALLOW_ONLY_NOT(c) });
    if (expected && /non-computable|P08|query error/.test(expected)) expect(run).toThrow(expected.replace(/^table \S+: /, ''));
    else expect(run).not.toThrow();
  });
});

/** Builds a JSON query the way /search does (bool with must/should/must_not), with error paths. */
function buildJson(query: Record<string, unknown>, path: string): QueryNode | null {
  const [name, value] = Object.entries(query).find(([k]) => k === 'bool' || isFullTextProperty(k)) ?? [];
  if (!name) return null;
  if (name !== 'bool') return fullTextNode(name, value, { path }).node;
  const parts: Record<string, (QueryNode | null)[]> = {};
  for (const [clause, items] of Object.entries(value as Record<string, unknown>)) {
    const list = (Array.isArray(items) ? items : [items]) as Record<string, unknown>[];
    const key = clause === 'must_not' ? 'mustNot' : clause;
    parts[key] = list.map((item) => buildJson(item, `${path}/bool/${clause}`)).filter((n, i) => n !== null || !('bool' in list[i]!));
  }
  return boolOf(parts);
}

describe('JSON full-text queries of the conformance cases', () => {
  const http = cases.flatMap((c) => steps(c).flatMap((s) => {
    const h = s.http as { path: string; body: Record<string, unknown> } | undefined;
    const q = h?.path === '/search' ? (h.body?.query as Record<string, unknown> | undefined) : undefined;
    return q ? [{ c, q }] : [];
  }));

  it.each(http.map(({ c, q }) => [c.id, q, c] as const))('%s', (_id, q, c) => {
    const body = (c.expect.body ?? {}) as Record<string, unknown>;
    const expected = typeof body.error === 'string' && body.error.includes('query error') ? body.error.replace(/^table \S+: /, '') : undefined;
    const run = (): unknown => finishQuery(buildJson(q, '/query'), { fields: ['title', 'content'] });
    if (expected && !expected.includes('filter and full-text')) expect(run).toThrow(expected);
    else if (!expected) expect(run).not.toThrow();
  });
});

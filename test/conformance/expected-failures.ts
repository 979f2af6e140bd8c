// The list of cases known to fail (case id -> reason and tracking issue), kept in expected-failures.json.
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { isSqlStep, type Case } from './cases.js';

export interface ExpectedFailure {
  reason: string;
  issue: number;
}

export type ExpectedFailures = Record<string, ExpectedFailure>;

export const DEFAULT_REASON = 'not yet implemented';

/** Statements that read per-connection state, which only a MySQL connection (or keep-alive) carries. */
const SESSION_STATEMENTS = /^\s*(show\s+(meta|warnings|status|profile)|select\s+(last_insert_id|@@|database\s*\())/i;

/** The JSON API endpoints (Manticore's names and their `json/` aliases). */
const JSON_ENDPOINT = /^\/(json\/)?(search|insert|create|replace|index|update|delete|bulk|_bulk|pq)\b/;

/**
 * The issue a failing case belongs to, by what it exercises: highlighting and snippets 6, query
 * syntax and ranking 5, per-connection state (needs the MySQL protocol) 4, the JSON API 3 (the
 * http-insert, http-search-match and update-delete areas, and JSON requests in any other area), the
 * rest (SQL, engine) 2.
 */
export function issueFor(c: Case): number {
  if (c.area.startsWith('highlight-') || c.area === 'call-snippets') return 6;
  if (c.area === 'query-syntax' || c.area === 'ranking') return 5;
  if (c.request.some((s) => isSqlStep(s) && SESSION_STATEMENTS.test(s.sql))) return 4;
  const jsonRequest = c.request.some((s) => !isSqlStep(s) && JSON_ENDPOINT.test(s.http.path));
  if (jsonRequest) return 3;
  const httpRequest = c.request.some((s) => !isSqlStep(s));
  if (httpRequest && ['http-insert', 'http-search-match', 'update-delete'].includes(c.area)) return 3;
  return 2;
}

export function loadExpectedFailures(path: string): ExpectedFailures {
  if (!existsSync(path)) return {};
  return JSON.parse(readFileSync(path, 'utf8')) as ExpectedFailures;
}

/**
 * The list after a run: cases that ran and failed are listed (keeping an existing reason), cases
 * that ran and passed are dropped, cases that did not run keep their entries.
 */
export function updatedExpectedFailures(
  previous: ExpectedFailures,
  ran: Case[],
  failed: Set<string>,
): ExpectedFailures {
  const next: ExpectedFailures = { ...previous };
  for (const c of ran) {
    if (failed.has(c.id)) next[c.id] = previous[c.id] ?? { reason: DEFAULT_REASON, issue: issueFor(c) };
    else delete next[c.id];
  }
  return Object.fromEntries(Object.entries(next).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)));
}

export function saveExpectedFailures(path: string, list: ExpectedFailures): void {
  writeFileSync(path, `${JSON.stringify(list, null, 2)}\n`);
}

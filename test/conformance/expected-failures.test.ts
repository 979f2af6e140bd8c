import { describe, expect, it } from 'vitest';
import { parseCaseLine, type Case } from './cases.js';
import { DEFAULT_REASON, issueFor, updatedExpectedFailures } from './expected-failures.js';

function kase(area: string, request: unknown, id = 'c'): Case {
  return parseCaseLine(JSON.stringify({ id, area, request, expect: {} }));
}
const http = { http: { method: 'POST', path: '/insert', body: {} } };

describe('issueFor', () => {
  it('files failing cases under the issue that covers them', () => {
    expect(issueFor(kase('http-insert', http))).toBe(3);
    expect(issueFor(kase('update-delete', http))).toBe(3);
    expect(issueFor(kase('update-delete', { sql: 'UPDATE t SET a=1' }))).toBe(2);
    expect(issueFor(kase('sql-select', { sql: 'SHOW META' }))).toBe(4);
    expect(issueFor(kase('query-syntax', { sql: 'SELECT 1' }))).toBe(5);
    expect(issueFor(kase('ranking', { sql: 'SELECT 1' }))).toBe(5);
    expect(issueFor(kase('highlight-json', http))).toBe(6);
    expect(issueFor(kase('call-snippets', { sql: 'CALL SNIPPETS(1)' }))).toBe(6);
    expect(issueFor(kase('truncate', { sql: 'TRUNCATE TABLE t' }))).toBe(2);
    expect(issueFor(kase('errors', { http: { method: 'POST', path: '/search', body: {} } }))).toBe(3);
    expect(issueFor(kase('errors', { http: { method: 'POST', path: '/cli_json', body: 'x' } }))).toBe(2);
  });
});

describe('updatedExpectedFailures', () => {
  it('lists new failures, keeps reasons, drops passes and leaves cases that did not run', () => {
    const previous = { old: { reason: 'known bug', issue: 9 }, fixed: { reason: 'x', issue: 2 }, other: { reason: 'y', issue: 2 } };
    const ran = [kase('truncate', { sql: 'q' }, 'old'), kase('truncate', { sql: 'q' }, 'fixed'), kase('ranking', { sql: 'q' }, 'new')];
    const next = updatedExpectedFailures(previous, ran, new Set(['old', 'new']));
    expect(next).toEqual({
      new: { reason: DEFAULT_REASON, issue: 5 },
      old: { reason: 'known bug', issue: 9 },
      other: { reason: 'y', issue: 2 },
    });
    expect(Object.keys(next)).toEqual(['new', 'old', 'other']);
  });
});

/** Test helpers: parse exactly one statement of an expected kind, or capture a parse error message. */
import { expect } from 'vitest';
import type { Statement } from '../../../src/sql/ast.js';
import { parseSql } from '../../../src/sql/parse-sql.js';
import { SearchError } from '../../../src/util/errors.js';

export function one<K extends Statement['kind']>(sql: string, kind: K): Extract<Statement, { kind: K }> {
  const stmts = parseSql(sql);
  expect(stmts).toHaveLength(1);
  expect(stmts[0]!.kind).toBe(kind);
  return stmts[0] as Extract<Statement, { kind: K }>;
}

/** The message of the PARSE_ERROR `sql` raises; fails the test if it parses. */
export function errorOf(sql: string): string {
  try {
    parseSql(sql);
  } catch (e) {
    expect(e).toBeInstanceOf(SearchError);
    expect((e as SearchError).code).toBe('PARSE_ERROR');
    return (e as SearchError).message;
  }
  throw new Error(`expected a parse error for: ${sql}`);
}

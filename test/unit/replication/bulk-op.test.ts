import { describe, expect, it } from 'vitest';
import { parse } from 'lossless-json';
import { bulkCluster, bulkLinesFor, bulkLinesOf, bulkOpLines } from '../../../src/replication/bulk-op.js';
import type { BulkLine } from '../../../src/engine/json/json-bulk.js';
import type { JsonValue } from '../../../src/engine/json/json-value.js';

const json = (text: string): BulkLine => ({ kind: 'json', value: parse(text) as JsonValue });
const clusterOf = (t: string) => (t === 't' || t === 'u' ? 'c' : t === 'x' ? 'other' : undefined);

describe('bulkCluster', () => {
  it('names the cluster when every statement line writes one of its tables with "cluster"', () => {
    expect(bulkCluster([json('{"insert":{"cluster":"c","table":"t","doc":{}}}'), { kind: 'empty' }, json('{"delete":{"cluster":"c","index":"U","id":1}}')], clusterOf)).toBe('c');
  });
  it('declines local requests and requests the lines do not agree on', () => {
    expect(bulkCluster([json('{"insert":{"table":"local","doc":{}}}')], clusterOf)).toBeUndefined();
    expect(bulkCluster([json('{"insert":{"cluster":"c","table":"t"}}'), json('{"insert":{"table":"local"}}')], clusterOf)).toBeUndefined();
    expect(bulkCluster([json('{"insert":{"cluster":"c","table":"t"}}'), json('{"insert":{"cluster":"other","table":"x"}}')], clusterOf)).toBeUndefined();
    expect(bulkCluster([json('{"insert":{"table":"t"}}')], clusterOf)).toBeUndefined();
    expect(bulkCluster([json('{"insert":{"cluster":"c","table":"x"}}')], clusterOf)).toBeUndefined();
  });
});

describe('bulkOpLines', () => {
  it('drops "cluster", fills generated ids, keeps given 64-bit ids exact and other lines as they are', async () => {
    let next = 100n;
    const lines: BulkLine[] = [
      json('{"insert":{"cluster":"c","table":"t","doc":{"n":1}}}'),
      json('{"replace":{"cluster":"c","table":"t","id":0,"doc":{}}}'),
      json('{"insert":{"cluster":"c","table":"t","id":18446744073709551615,"doc":{}}}'),
      json('{"update":{"cluster":"c","table":"t","id":5,"doc":{"n":2}}}'),
      { kind: 'empty' },
      { kind: 'bad', error: 'unable to parse' },
    ];
    const out = await bulkOpLines(lines, async () => next++);
    expect(out).toEqual([
      { kind: 'json', text: '{"insert":{"table":"t","doc":{"n":1},"id":100}}' },
      { kind: 'json', text: '{"replace":{"table":"t","id":101,"doc":{}}}' },
      { kind: 'json', text: '{"insert":{"table":"t","id":18446744073709551615,"doc":{}}}' },
      { kind: 'json', text: '{"update":{"table":"t","id":5,"doc":{"n":2}}}' },
      { kind: 'empty' },
      { kind: 'bad', error: 'unable to parse' },
    ]);
    const back = bulkLinesOf(out);
    expect(back[0]).toEqual(json('{"insert":{"table":"t","doc":{"n":1},"id":100}}'));
    expect(back[4]).toEqual({ kind: 'empty' });
  });
});

describe('bulkLinesFor', () => {
  it('keeps the statement lines of the tables asked for, and the empty and bad lines', () => {
    const lines = [
      { kind: 'json' as const, text: '{"insert":{"table":"t","id":1,"doc":{}}}' }, { kind: 'empty' as const },
      { kind: 'json' as const, text: '{"delete":{"index":"U","id":1}}' }, { kind: 'bad' as const, error: 'x' },
      { kind: 'json' as const, text: '{"update":{"table":"t","id":1,"doc":{"n":2}}}' },
    ];
    expect(bulkLinesFor(lines, (t) => t === 't')).toEqual([lines[0], lines[1], lines[3], lines[4]]);
    expect(bulkLinesFor(lines, (t) => t === 'u')).toEqual([lines[1], lines[2], lines[3]]);
  });
});

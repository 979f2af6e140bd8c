import { describe, expect, it } from 'vitest';
import { parse } from 'lossless-json';
import { esBulkCluster, esBulkDocsOf, esBulkItemsAs, esBulkOpDocs } from '../../../src/replication/es-bulk-op.js';
import type { EsBulkDoc } from '../../../src/engine/json/json-es-bulk.js';
import type { JsonValue } from '../../../src/engine/json/json-value.js';

const clusterOf = (t: string) => (t === 't' || t === 'u' ? 'c' : undefined);
const src = (text: string) => parse(text) as JsonValue;

describe('/_bulk over a cluster', () => {
  it('names the cluster when every document has an _index of c:t for one cluster holding t', () => {
    expect(esBulkCluster([{ action: 'index', table: 'c:t' }, { action: 'delete', table: 'c:u', id: 1n }], clusterOf)).toBe('c');
    expect(esBulkCluster([{ action: 'index', table: 'c:t' }, { action: 'index', table: 'local' }], clusterOf)).toBeUndefined();
    expect(esBulkCluster([{ action: 'index', table: 't' }], clusterOf)).toBeUndefined();
    expect(esBulkCluster([{ action: 'index', table: 'c:x' }], clusterOf)).toBeUndefined();
    expect(esBulkCluster([{ action: 'index', table: 'd:t' }], clusterOf)).toBeUndefined();
  });

  it('carries the documents with bare names and the writer\'s ids for those without one, 64-bit numbers exact', async () => {
    const docs: EsBulkDoc[] = [
      { action: 'create', table: 'c:t', source: src('{"title":"a","big":18446744073709551615}') },
      { action: 'index', table: 'c:t', id: 5n, source: src('{"title":"b"}') },
      { action: 'index', table: 'c:t', source: src('{"id":6,"title":"c"}') },
      { action: 'update', table: 'c:t', id: 'abc', source: src('{"doc":{"n":1}}') },
      { action: 'index', table: 'c:t', sourceError: 'bad json' },
    ];
    let next = 100n;
    const op = await esBulkOpDocs(docs, async () => next++);
    expect(op.map((d) => [d.table, d.idNum, d.idText])).toEqual([['t', '100', undefined], ['t', '5', undefined], ['t', undefined, undefined], ['t', undefined, 'abc'], ['t', undefined, undefined]]);
    const back = esBulkDocsOf(JSON.parse(JSON.stringify(op)));
    expect(back[0]).toEqual({ action: 'create', table: 't', id: 100n, source: src('{"title":"a","big":18446744073709551615}') });
    expect(back[4]).toEqual({ action: 'index', table: 't', sourceError: 'bad json' });
    expect(esBulkItemsAs([{ action: 'index', table: 't', id: '1', result: 'created' }], 'c')[0]!.table).toBe('c:t');
  });
});

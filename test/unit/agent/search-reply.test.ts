// The SEARCH reply as an agent sends it to a Manticore master (master 35) against the layout recorded
// from manticoresearch's SendResult (src/daemon/api_search.cpp, e790cb5): the `id` attribute first
// (a Manticore master reads ids from it), the approximate-total flag, the statistics mask and fetched
// counters, a flag byte per word. And the master's reader over a Manticore agent's reply that carries
// I/O and CPU statistics.
import { describe, expect, it } from 'vitest';
import { writeSearchResult } from '../../../src/agent/search-reply.js';
import { readSearchResults } from '../../../src/agent/search-write.js';
import { ApiWriter } from '../../../src/agent/wire.js';
import { rows } from '../../../src/engine/result.js';
import { Bytes } from '../../helpers/api-bytes.js';

const result = rows(
  [{ name: 'id', kind: 'bigint' }, { name: 'gid', kind: 'uint' }, { name: 'price', kind: 'float' }, { name: 'api_id', kind: 'bigint' }],
  [[7n, 2, 1.5, 7n], [9n, 3, 2.5, 9n]],
  { weights: [1500, 1400], meta: { total: 2, totalFound: 5, totalRelation: 'eq', timeMs: 3, keywords: [{ keyword: 'hello', docs: 5, hits: 6 }] } },
);

/** What SendResult writes for that result to a master 35 (agent mode, no I/O or CPU statistics). */
function recordedReply(): Buffer {
  return new Bytes()
    .int(0) // SEARCHD_OK
    .int(1).str('title') // fields
    .int(3).str('id').int(6).str('gid').int(1).str('price').int(5) // attributes: id BIGINT first
    .int(2).int(1) // matches, 64-bit ids
    .u64(7n).int(1500).u64(7n).int(2).float(1.5)
    .u64(9n).int(1400).u64(9n).int(3).float(2.5)
    .int(2).int(5).int(0).int(3) // retrieved, total found, not approximate, ms
    .byte(0).int(0).int(0).int(0) // statistics mask, fetched docs, hits, skips
    .int(1).str('hello').int(5).int(6).byte(0) // words, each with its expanded-term flag
    .get();
}

describe('the SEARCH reply to a Manticore master', () => {
  it('is the recorded layout, byte for byte', () => {
    const w = new ApiWriter();
    writeSearchResult(w, result, { fields: ['title'], described: new Map(), agent: true, version: 0x128, masterVersion: 35 });
    expect(w.bytes().equals(recordedReply())).toBe(true);
  });

  it('is read back by the master with the id attribute folded into the match', () => {
    const [r] = readSearchResults(recordedReply(), 1, 35);
    expect(r!.attrs).toEqual([{ name: 'gid', type: 1 }, { name: 'price', type: 5 }]);
    expect(r!.matches).toEqual([{ id: 7n, weight: 1500, values: [2, 1.5] }, { id: 9n, weight: 1400, values: [3, 2.5] }]);
    expect(r).toMatchObject({ total: 2, totalFound: 5, timeMs: 3, words: [{ word: 'hello', docs: 5, hits: 6 }] });
  });

  it('reads a Manticore agent that sends I/O and CPU statistics, and refuses a count that disagrees', () => {
    const head = new Bytes()
      .int(3).str('agent warning') // SEARCHD_WARNING
      .int(0).int(1).str('id').int(6).int(1).int(1).u64(42n).int(1).u64(42n)
      .get();
    const withStats = Buffer.concat([head, new Bytes()
      .int(1).int(10).int(1).int(0) // retrieved, total, approximate, ms
      .byte(3).u64(1n).int(2).u64(3n).u64(4n).int(5).u64(6n).u64(99n) // I/O and CPU statistics
      .int(10).int(20).int(30).int(0)
      .get()]);
    const [r] = readSearchResults(withStats, 1, 35);
    expect(r).toMatchObject({ warning: 'agent warning', attrs: [], totalFound: 10, matches: [{ id: 42n, weight: 1, values: [] }] });
    const bad = Buffer.from(withStats);
    bad.writeInt32BE(2, head.length); // "retrieved"
    expect(() => readSearchResults(bad, 1, 35)).toThrow('expected 1 retrieved documents, got 2');
  });
});

// The scan path's keyword tables in the scanner instance's memory (src/wasm/snippet-scan.ts): one per
// distinct set of keywords, found again by content when the query is parsed again (each CALL
// SNIPPETS), and the oldest freed once many were made, so distinct queries do not pile up core memory.
import { describe, expect, it } from 'vitest';
import { Core } from '../../../src/wasm/core.js';
import { SnippetStreams } from '../../../src/wasm/snippet-scan.js';

type Table = { ptr: number; mask: number };
/** The private table look-up, and the dictionary state it keys on. */
type Tables = { table(d: unknown, keywords: ReadonlyMap<string, number>): Table; dict(req: object, gen: number): unknown };

function streamsOver(core: Core): { tables: Tables; live: () => number } {
  let live = 0;
  const alloc = core.alloc.bind(core);
  const free = core.free.bind(core);
  core.alloc = (size) => { live++; return alloc(size); };
  core.free = (ptr) => { if (ptr) live--; free(ptr); };
  return { tables: new SnippetStreams(core) as unknown as Tables, live: () => live };
}

describe('snippet-scan keyword tables', () => {
  it('equal keywords in another map (the query parsed again) find the same table', () => {
    const { tables, live } = streamsOver(new Core());
    const d = tables.dict({ dictKey: {} }, 0);
    const a = tables.table(d, new Map([['water', 0], ['state', 1]]));
    const before = live();
    const b = tables.table(d, new Map([['water', 0], ['state', 1]]));
    expect(b.ptr).toBe(a.ptr);
    expect(live()).toBe(before);
    expect(tables.table(d, new Map([['water', 1], ['state', 0]])).ptr).not.toBe(a.ptr);
  });

  it('distinct queries without end keep a bounded number of tables in core memory', () => {
    const { tables, live } = streamsOver(new Core());
    const d = tables.dict({ dictKey: {} }, 0);
    tables.table(d, new Map([['w0', 0]]));
    const start = live();
    for (let i = 1; i <= 2000; i++) tables.table(d, new Map([[`w${i}`, 0], [`v${i}`, 1]]));
    expect(live() - start).toBeLessThanOrEqual(256);
    // the newest is still found
    const last = tables.table(d, new Map([['w2000', 0], ['v2000', 1]]));
    expect(tables.table(d, new Map([['w2000', 0], ['v2000', 1]])).ptr).toBe(last.ptr);
  });
});

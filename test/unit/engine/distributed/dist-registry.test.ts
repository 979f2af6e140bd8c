import { describe, expect, it } from 'vitest';
import { DistributedTables, type MetaStore } from '../../../../src/engine/distributed/dist-registry.js';

function memoryMeta(): MetaStore {
  const m = new Map<string, unknown>();
  return { getMeta: (k) => m.get(k), setMeta: async (k, v) => { m.set(k, v); } };
}

describe('the distributed tables a node serves', () => {
  it('keeps created tables across a reopen and drops them', async () => {
    const meta = memoryMeta();
    const reg = DistributedTables.open(meta, new Map(), () => true);
    await reg.create('D', { type: ['distributed'], local: ['t1'], agent: ['h:1:a', 'h:2:b'] }, () => true);
    const again = DistributedTables.open(meta, new Map(), () => false); // locals are not re-checked on load
    expect(again.get('d')?.agents.map((a) => a.text)).toEqual(['h:1:a', 'h:2:b']);
    await again.drop('d');
    expect(DistributedTables.open(meta, new Map(), () => true).names()).toEqual([]);
  });

  it('serves config sections, refuses to drop them, and skips a bad one', () => {
    const config = new Map<string, Record<string, string[]>>([['Cfg', { type: ['distributed'], agent: ['h:1:a'] }], ['bad', { type: ['distributed'] }]]);
    const reg = DistributedTables.open(memoryMeta(), config, () => true);
    expect(reg.names()).toEqual(['cfg']);
    return expect(reg.drop('cfg')).rejects.toThrow(/defined in the config file/);
  });
});

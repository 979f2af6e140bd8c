import { describe, expect, it } from 'vitest';
import { AUTO_ID_BLOCK, AUTO_ID_EPOCH_S, IdGenerator } from '../../../src/engine/id-generator.js';

function memoryReservations(start = 0n) {
  let saved = start;
  const saves: bigint[] = [];
  return { load: () => saved, save: async (v: bigint) => { saved = v; saves.push(v); }, saves };
}

describe('IdGenerator', () => {
  it('makes Manticore-shaped ids: start time in bits 24-55, counter from 1', async () => {
    const now = (AUTO_ID_EPOCH_S + 100000) * 1000;
    const gen = new IdGenerator(memoryReservations(), 0, now);
    expect(await gen.take(2)).toEqual([(100000n << 24n) | 1n, (100000n << 24n) | 2n]);
  });

  it('puts server_id & 127 in bits 56-62', async () => {
    const gen = new IdGenerator(memoryReservations(), 129, (AUTO_ID_EPOCH_S + 5) * 1000);
    const [id] = await gen.take(1);
    expect(id >> 56n).toBe(1n);
  });

  it('never repeats an id after a restart in the same second or with the clock set back', async () => {
    const res = memoryReservations();
    const now = (AUTO_ID_EPOCH_S + 500) * 1000;
    const first = await new IdGenerator(res, 0, now).take(3);
    const again = await new IdGenerator(res, 0, now - 60_000).take(1);
    expect(again[0] > first[2]).toBe(true);
  });

  it('reserves durably in blocks, not per id', async () => {
    const res = memoryReservations();
    const gen = new IdGenerator(res, 0, (AUTO_ID_EPOCH_S + 1) * 1000);
    for (let k = 0; k < 100; k++) await gen.take(10);
    expect(res.saves.length).toBe(1);
    expect(res.saves[0] >= AUTO_ID_BLOCK).toBe(true);
  });

  it('concurrent takes get disjoint ids', async () => {
    const gen = new IdGenerator(memoryReservations(), 0, (AUTO_ID_EPOCH_S + 1) * 1000);
    const all = (await Promise.all([gen.take(5), gen.take(5), gen.take(5)])).flat();
    expect(new Set(all).size).toBe(15);
  });
});

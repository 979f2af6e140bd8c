import { describe, expect, it } from 'vitest';
import { collectGarbage } from '../../../src/engine/background/idle-gc.js';
import { keepShape } from '../../../src/util/shape-keeper.js';

describe('keepShape', () => {
  // WeakRef targets stay alive to the end of the job that made them: the collection runs a turn later
  const nextTurn = () => new Promise((r) => setImmediate(r));

  it('keeps an instance alive through a forced full collection, which frees one not kept', async () => {
    class Scratch { a = new Uint32Array(4); n = 0; }
    const kept = new WeakRef(keepShape(new Scratch()));
    const dropped = new WeakRef(new Scratch());
    await nextTurn();
    collectGarbage();
    await nextTurn();
    expect(kept.deref()).toBeInstanceOf(Scratch);
    expect(dropped.deref()).toBeUndefined();
  });

  it('returns the instance it was given', () => {
    const x = { n: 1 };
    expect(keepShape(x)).toBe(x);
  });
});

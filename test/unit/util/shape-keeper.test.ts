import { describe, expect, it } from 'vitest';
import { collectGarbage } from '../../../src/engine/background/idle-gc.js';
import { keepLatest, keepShape } from '../../../src/util/shape-keeper.js';

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

  it('keepLatest keeps the last instance of a key through a forced collection, and lets the one it replaced go', async () => {
    class Conn { socket = { fd: 1 }; open = false; }
    const first = new WeakRef(new Conn());
    keepLatest('test connection', first.deref()!);
    const second = new WeakRef(new Conn());
    keepLatest('test connection', second.deref()!);
    await nextTurn();
    collectGarbage();
    await nextTurn();
    expect(second.deref()).toBeInstanceOf(Conn);
    expect(first.deref()).toBeUndefined();
  });
});

import { describe, expect, it } from 'vitest';
import { collectGarbage, IdleCollector } from '../../../../src/engine/background/idle-gc.js';

describe('collectGarbage', () => {
  it('collects unreachable objects now, without exposing gc to the global scope', () => {
    let garbage: { i: number; s: string }[] | null = [];
    for (let i = 0; i < 300_000; i++) garbage.push({ i, s: `row ${i}` });
    const held = process.memoryUsage().heapUsed;
    garbage = null;
    collectGarbage();
    expect(process.memoryUsage().heapUsed).toBeLessThan(held - 10 * 1024 * 1024);
    expect((globalThis as { gc?: unknown }).gc).toBeUndefined();
  });
});

describe('IdleCollector', () => {
  /** A collector over a CPU clock the test advances; counts its collections. */
  function setup() {
    let cpu = 0;
    let collections = 0;
    const idle = new IdleCollector(() => cpu, () => { collections++; });
    const tick = (usedMs: number) => { cpu += usedMs * 1000; return idle.tick(1000); };
    return { idle, tick, collections: () => collections };
  }

  it('collects after work once the process has been idle for two ticks, twice more five and ten idle ticks later, then not while idle', () => {
    const { tick, collections } = setup();
    expect(tick(900)).toBe(false); // a load
    expect(tick(400)).toBe(false);
    expect(tick(1)).toBe(false); // one quiet second: an fsync, a pause between requests
    expect(tick(0)).toBe(true);
    for (let i = 0; i < 4; i++) expect(tick(0)).toBe(false);
    expect(tick(0)).toBe(true); // the first follow-up, often still at the burst's allocation rate for V8
    for (let i = 0; i < 4; i++) expect(tick(0)).toBe(false);
    expect(tick(0)).toBe(true); // the second: the idle rate (young generation shrunk), past jemalloc's decay time
    for (let i = 0; i < 20; i++) expect(tick(0)).toBe(false);
    expect(collections()).toBe(3);
  });

  it('tells a follow-up from the collection after work (the engine drops its field scanner only at a follow-up)', () => {
    let cpu = 0;
    const kinds: boolean[] = [];
    const idle = new IdleCollector(() => cpu, (followUp) => { kinds.push(followUp); });
    const tick = (usedMs: number) => { cpu += usedMs * 1000; idle.tick(1000); };
    tick(900);
    for (let i = 0; i < 2 + 5 + 5; i++) tick(0);
    expect(kinds).toEqual([false, true, true]);
    tick(300); // a burst of writes 2-7 s after the last: its collection, no follow-up of the one before
    tick(0);
    tick(0);
    tick(300);
    tick(0);
    tick(0);
    expect(kinds).toEqual([false, true, true, false, false]);
    for (let i = 0; i < 5; i++) tick(0);
    expect(kinds).toEqual([false, true, true, false, false, true]);
  });

  it('drops the follow-ups still due when work worth a collection comes first', () => {
    const { tick, collections } = setup();
    tick(900);
    tick(0);
    tick(0);
    for (let i = 0; i < 5; i++) tick(0);
    expect(collections()).toBe(2); // the collection and its first follow-up
    tick(300); // a merge: its own collection once idle, then that one's two follow-ups
    for (let i = 0; i < 2 + 5 + 5; i++) tick(0);
    expect(collections()).toBe(5);
    for (let i = 0; i < 20; i++) tick(0);
    expect(collections()).toBe(5);
  });

  it('waits while the process stays busy, and a busy tick restarts the idle count', () => {
    const { tick, collections } = setup();
    tick(500);
    tick(0);
    tick(300); // a merge finishing
    tick(0);
    expect(collections()).toBe(0);
    tick(0);
    expect(collections()).toBe(1);
    tick(200); // work again before the follow-up: a collection at the next idle instead
    tick(0);
    tick(0);
    expect(collections()).toBe(2);
  });

  it('leaves light traffic to V8 (under 50 ms of work), but a checkpoint written always counts', () => {
    const { idle, tick, collections } = setup();
    tick(30);
    for (let i = 0; i < 5; i++) tick(0);
    expect(collections()).toBe(0);
    idle.noteWork();
    tick(0);
    tick(0);
    expect(collections()).toBe(1);
  });

  it('collects after queries only once the process has been idle for 10 ticks (a pause between bursts is not the end of one); a write or a checkpoint after 2', async () => {
    let cpu = 0;
    let seq = 0;
    let collections = 0;
    const idle = new IdleCollector(() => cpu, () => { collections++; }, () => seq);
    const tick = (usedMs: number) => { cpu += usedMs * 1000; idle.tick(1000); };
    tick(500); // startup: recovery, first segments
    tick(0);
    tick(0);
    expect(collections).toBe(1);
    for (let i = 0; i < 6; i++) tick(0); // the follow-up
    expect(collections).toBe(2);
    for (let burst = 0; burst < 3; burst++) {
      for (let i = 0; i < 10; i++) tick(900); // a burst of queries
      for (let i = 0; i < 9; i++) tick(0); // and a pause
    }
    expect(collections).toBe(2);
    tick(0); // the tenth idle tick
    expect(collections).toBe(3);
    tick(900); // queries before the follow-up: it waits for their own collection
    for (let i = 0; i < 9; i++) tick(0);
    expect(collections).toBe(3);
    tick(0);
    expect(collections).toBe(4);
    for (let i = 0; i < 5; i++) tick(0);
    expect(collections).toBe(5); // its follow-up
    tick(900);
    seq++; // a write among them
    tick(0);
    tick(0);
    expect(collections).toBe(6);
    for (let i = 0; i < 6; i++) tick(0);
    tick(900);
    idle.noteWork(); // a checkpoint written
    tick(0);
    tick(0);
    expect(collections).toBe(8);
  });
});

import { describe, expect, it } from 'vitest';
import { MAX_IN_FLIGHT, roundOnTimeout, roundReady, SECOND_MIN, SPLIT_MIN, SplitGauge } from '../../../../src/engine/transaction/round-policy.js';

describe('roundReady', () => {
  it('as one group: a round goes once every owed statement is back, never beside another', () => {
    expect(roundReady(15, 1, 0, false)).toBe(false);
    expect(roundReady(16, 0, 0, false)).toBe(true);
    expect(roundReady(16, 0, 1, false)).toBe(false);
    expect(roundReady(0, 0, 0, false)).toBe(false);
  });

  it('split: with nothing in flight a round goes at half; beside one only a whole group of SECOND_MIN or more', () => {
    expect(roundReady(7, 9, 0, true)).toBe(false);
    expect(roundReady(8, 8, 0, true)).toBe(true);
    expect(roundReady(7, 1, 1, true)).toBe(false); // its group not back whole
    expect(roundReady(8, 0, 1, true)).toBe(true);
    expect(roundReady(SECOND_MIN - 1, 0, 1, true)).toBe(false); // a short round waits and joins the next
    expect(roundReady(8, 0, MAX_IN_FLIGHT, true)).toBe(false);
    // few clients: no half-round, all of them as one
    expect(roundReady(2, SPLIT_MIN - 3, 0, true)).toBe(false);
    expect(roundReady(SPLIT_MIN - 1, 0, 0, true)).toBe(true);
  });

  it('at the gather window\'s end: a round goes with what is queued, beside another only split and with SECOND_MIN', () => {
    expect(roundOnTimeout(3, 0, false)).toBe(true);
    expect(roundOnTimeout(0, 0, true)).toBe(false);
    expect(roundOnTimeout(SECOND_MIN, 1, false)).toBe(false);
    expect(roundOnTimeout(SECOND_MIN - 1, 1, true)).toBe(false);
    expect(roundOnTimeout(SECOND_MIN, 1, true)).toBe(true);
  });
});

describe('SplitGauge', () => {
  it('splits only once both times are known and a write is shorter than all the clients\' turnaround', () => {
    const g = new SplitGauge();
    expect(g.split(16)).toBe(false);
    g.noteWrite(0.8);
    expect(g.split(16)).toBe(false);
    g.noteTurnaround(1.2, 16); // 0.075 ms a statement: 1.2 for 16 clients
    expect(g.split(16)).toBe(true);
    expect(g.split(8)).toBe(false); // 0.6 for 8: the write is longer
    expect(g.split(SPLIT_MIN - 1)).toBe(false);
  });

  it('follows the disk: writes slowing past the turnaround end the split', () => {
    const g = new SplitGauge();
    g.noteWrite(0.8);
    g.noteTurnaround(1.2, 16);
    for (let i = 0; i < 20; i++) g.noteWrite(4.5); // a loaded disk
    expect(g.split(16)).toBe(false);
    for (let i = 0; i < 20; i++) g.noteWrite(0.5);
    expect(g.split(16)).toBe(true);
  });
});

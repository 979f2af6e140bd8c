// Inputs long fuzz runs found problems with (npm run fuzz -- --seed S), replayed one by one against the
// real server with the fuzz's own oracles (a well-formed answer within ANSWER_MS, then a trivial query).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SETUP } from './runner.js';
import { startServerUnderTest, type ServerUnderTest } from './server-under-test.js';
import { describeInput, newWorker, type TargetName } from './targets.js';

/** [seed, target, input index, what it was]. */
const FOUND: [number, TargetName, number, string][] = [
  [2, 'sql', 42733, "CALL AUTOCOMPLETE of a 140,000-character word: its keyboard-layout readings stalled the event loop 38 s"],
  [1, 'sql', 83713, "REGEX(s, '(?i)(\\\\p{Ll}+)+$') over a 40-letter value: the 'u' flag's backtracking engine held the event loop for ever"],
];

let server: ServerUnderTest;
beforeAll(async () => {
  server = await startServerUnderTest();
  for (const q of SETUP) await server.sql(q);
}, 60_000);
afterAll(async () => { await server?.stop(); });

describe('fuzz inputs that once failed', () => {
  it.each(FOUND)('seed %i %s #%i (%s) is answered well-formed and in time', async (seed, target, index) => {
    const worker = await newWorker(target, seed, server.ports);
    try {
      expect(await worker.run(index), describeInput(seed, target, index).slice(0, 200)).toBeUndefined();
    } finally {
      worker.close();
    }
    expect(server.alive()).toBe(true);
    expect(server.internalErrors).toEqual([]);
  }, 60_000);
});

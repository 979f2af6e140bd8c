// The zeros the write log keeps written ahead of its records (src/store/write-log/zero-fill.ts): they read as
// the end of the log, a torn record before them ends it, and once they are there the rounds' writes
// overwrite them without changing the file's size.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { mkdtempSync, readFileSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { docKey, genKey, opKey, u64Bytes } from '../../../../src/store/keys.js';
import { decodeRounds, encodeRound, LogDb, setLsn, WriteLog, type LogRound } from '../../../../src/store/write-log/write-log.js';
import { FILL_AHEAD_BYTES } from '../../../../src/store/write-log/zero-fill.js';

let root: string;
beforeAll(() => { root = mkdtempSync(join(tmpdir(), 'quarry-zero-fill-')); });
afterAll(() => { rmSync(root, { recursive: true, force: true }); });

function round(lastSeq: bigint, text: string): LogRound {
  return {
    gen: 1,
    lastSeq,
    puts: [
      { db: LogDb.DOCS, key: docKey(1, lastSeq), value: Buffer.from(text) },
      { db: LogDb.OPS, key: opKey(1, lastSeq), value: Buffer.from('op') },
      { db: LogDb.SEQ, key: genKey(1), value: u64Bytes(lastSeq) },
    ],
  };
}

describe('a log followed by zeros', () => {
  const rounds = [round(1n, 'one'), round(2n, 'two'), round(3n, 'three')];
  const bytes = rounds.map((r, i) => { const b = encodeRound(r); setLsn(b, 1n + BigInt(i)); return b; });
  const whole = Buffer.concat(bytes);
  const zeros = Buffer.alloc(8192);

  it('ends where the zeros start', () => {
    expect(decodeRounds(Buffer.concat([whole, zeros]))).toEqual({ rounds, lastLsn: 3n, end: whole.length });
  });

  it('a torn last record (cut at any byte, zeros after it) ends the log before it, unless the zeros are its own last bytes', () => {
    const before = bytes[0]!.length + bytes[1]!.length;
    let torn = 0;
    for (let cut = before; cut < whole.length; cut++) {
      const read = decodeRounds(Buffer.concat([whole.subarray(0, cut), zeros])).rounds;
      // the bytes the cut left out were zeros: the record on disk is exactly the one written
      if (whole.subarray(cut).every((b) => b === 0)) expect(read).toEqual(rounds);
      else { expect(read).toEqual(rounds.slice(0, 2)); torn++; }
    }
    expect(torn).toBeGreaterThan(bytes[2]!.length - 8);
  });
});

describe('the write log with zeros ahead', () => {
  it('keeps zeros written ahead of its records, and its writes then leave the file size as it is', async () => {
    const path = join(root, 'ahead.log');
    const log = WriteLog.open(path).log!;
    const written: LogRound[] = [];
    const next = (text: string) => { const r = round(BigInt(written.length + 1), text); written.push(r); return r; };
    await log.append(next('first'));
    await log.settle();
    const size = statSync(path).size;
    expect(size).toBeGreaterThanOrEqual(log.offset + FILL_AHEAD_BYTES);
    expect(log.filled).toBe(size);
    expect(readFileSync(path).subarray(log.offset).every((b) => b === 0)).toBe(true);
    // each round's record lands within zeros already written: the round's own write never extends the file
    let last = size;
    for (let i = 0; i < 300; i++) {
      await log.append(next(`${i} ${'x'.repeat(1000 + ((i * 997) % 3000))}`));
      expect(log.offset).toBeLessThanOrEqual(last);
      await log.settle();
      last = statSync(path).size;
      expect(last).toBeGreaterThanOrEqual(log.offset + FILL_AHEAD_BYTES);
    }
    expect(last).toBeGreaterThan(size);
    log.close();
    expect(WriteLog.open(path, true).rounds).toEqual(written);
  });

  it('rounds appended back to back while zeros are written keep every record whole and in order', async () => {
    const path = join(root, 'racing.log');
    const log = WriteLog.open(path).log!;
    const all = Array.from({ length: 600 }, (_, i) => round(BigInt(i + 1), `${i} ${'w'.repeat(200 + ((i * 37) % 3000))}`));
    // 8 writers, each awaiting its record before the next: writes start while steps are in flight
    await Promise.all([0, 1, 2, 3, 4, 5, 6, 7].map(async (w) => {
      for (let i = w; i < all.length; i += 8) await log.append(all[i]!);
    }));
    const read = WriteLog.open(path, true).rounds;
    expect(read.length).toBe(all.length);
    expect(new Set(read.map((r) => r.lastSeq))).toEqual(new Set(all.map((r) => r.lastSeq)));
    await log.settle();
    log.close();
  });

  it('truncate after settle empties the file; close with a step in flight leaves the records readable', async () => {
    const path = join(root, 'close.log');
    const log = WriteLog.open(path).log!;
    await log.append(round(1n, 'a'));
    await log.settle();
    log.truncate();
    expect(statSync(path).size).toBe(0);
    expect(log.filled).toBe(0);
    const r = round(2n, 'b');
    await log.append(r); // its end starts a step
    log.close(); // the step stops at its next write; its descriptor is closed then
    expect(WriteLog.open(path, true).rounds).toEqual([r]);
  });
});

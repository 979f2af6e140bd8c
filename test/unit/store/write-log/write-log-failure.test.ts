// The write log when a write fails after a short write (a disk filling up): the whole records that got
// onto disk before the error are blanked, so a crash cannot replay rounds that were reported failed.
import { afterAll, beforeAll, expect, it, vi } from 'vitest';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { docKey, genKey, opKey, u64Bytes } from '../../../../src/store/keys.js';
import { LogDb, WriteLog, type LogRound } from '../../../../src/store/write-log/write-log.js';

/**
 * When set: the next write is cut after this many bytes and the one after it fails with ENOSPC; `zeros`:
 * every write of zeros fails with ENOSPC.
 */
const fault: { cutAt?: number; failNext?: boolean; zeros?: boolean } = {};

vi.mock('node:fs', async (original) => {
  const real = await original<typeof import('node:fs')>();
  type Cb = (err: NodeJS.ErrnoException | null, n: number) => void;
  const write = (fd: number, buf: Buffer, off: number, len: number, pos: number, cb: Cb) => {
    if (fault.failNext) {
      fault.failNext = false;
      const err: NodeJS.ErrnoException = Object.assign(new Error('ENOSPC: no space left on device'), { code: 'ENOSPC' });
      return setImmediate(() => cb(err, 0));
    }
    if (fault.cutAt !== undefined) {
      len = Math.min(len, fault.cutAt);
      fault.cutAt = undefined;
      fault.failNext = true;
    }
    return real.write(fd, buf, off, len, pos, cb);
  };
  // the zeros written ahead of the log's records (zero-fill.ts, writeSync only) fail only when fault.zeros says
  const writeSync = (fd: number, buf: Buffer, off: number, len: number, pos: number) => {
    if (fault.zeros && buf.subarray(off, off + len).every((b) => b === 0)) {
      throw Object.assign(new Error('ENOSPC: no space left on device'), { code: 'ENOSPC' });
    }
    return real.writeSync(fd, buf, off, len, pos);
  };
  return { ...real, write, writeSync, default: { ...real, write, writeSync } };
});

let root: string;
beforeAll(() => { root = mkdtempSync(join(tmpdir(), 'quarry-write-log-fail-')); });
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

it('records of a failed write are not read back, though a short write got them onto disk', async () => {
  const path = join(root, 'log');
  const { log } = WriteLog.open(path);
  const a = round(1n, 'kept');
  const first = log!.append(a); // its write is issued now
  // b and c queue behind a's write and go in one write, cut right after b's record (16 + 16 + 3 puts of
  // 7 + key + value bytes), then ENOSPC
  fault.cutAt = 16 + 16 + (7 + docKey(1, 2n).length + 8) + (7 + opKey(1, 2n).length + 2) + (7 + genKey(1).length + 8);
  const b = round(2n, 'failed b');
  const c = round(3n, 'failed c');
  const failed = [log!.append(b), log!.append(c)];
  await first;
  for (const p of failed) await expect(p).rejects.toThrow(/no space left/);
  expect(WriteLog.open(path, true).rounds).toEqual([a]);
  // the next record goes where the failed ones went, and is read back after a
  const d = round(4n, 'next');
  await log!.append(d);
  expect(WriteLog.open(path, true).rounds).toEqual([a, d]);
  log!.close();
});

it('zeros that cannot be written ahead (a full disk) fail no round: the rounds extend the file themselves', async () => {
  const path = join(root, 'log-zeros');
  const { log } = WriteLog.open(path);
  fault.zeros = true;
  try {
    const rounds = Array.from({ length: 30 }, (_, i) => round(BigInt(i + 1), `round ${i} ${'y'.repeat(3000)}`));
    for (const r of rounds) await log!.append(r);
    await log!.settle();
    expect(log!.filled).toBe(0);
    expect(WriteLog.open(path, true).rounds).toEqual(rounds);
  } finally {
    fault.zeros = false;
    log!.close();
  }
});

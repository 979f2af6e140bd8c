// The write log when a write fails after a short write (a disk filling up): the whole records that got
// onto disk before the error are blanked, so a crash cannot replay rounds that were reported failed.
import { afterAll, beforeAll, expect, it, vi } from 'vitest';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { docKey, genKey, opKey } from '../../../../src/store/keys.js';
import { WriteLog } from '../../../../src/store/write-log/write-log.js';
import { oneDocRound } from './one-doc-round.js';

/** When set: the next write is cut after this many bytes and the one after it fails with ENOSPC. */
const fault: { cutAt?: number; failNext?: boolean } = {};

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
  return { ...real, write, default: { ...real, write } };
});

let root: string;
beforeAll(() => { root = mkdtempSync(join(tmpdir(), 'quarry-write-log-fail-')); });
afterAll(() => { rmSync(root, { recursive: true, force: true }); });

const round = oneDocRound;

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

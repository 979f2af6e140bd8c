// bench/store/log-write-probe.ts: what one flushed write of the write log (src/store/write-log/write-log.ts) costs on
// this disk, by how it is made: an O_DSYNC write that extends the file against one that overwrites blocks
// already written (zero-filled and flushed ahead: tried in session 19, not kept), O_DSYNC against write +
// fdatasync, records at any offset against padded to 4 kB boundaries, and a round's write with the zero fill
// ahead of it done in between (the log's pattern). Per case: mean, p50, p90, p99 ms a write and the disk bytes
// written a write (/proc/self/io write_bytes, which counts page writeback of this process; the journal's own
// writes are jbd2's and not in it). Synchronous writes from one thread, nothing else of quarry running.
// Run: npm run build && node dist/bench/store/log-write-probe.js [--writes 400] [--bytes 30000] [--dir /tmp]
// [--paired 1] (only extend against overwrite, write by write in turn: see runPaired) [--fill 65536] (the 'ahead' cases' zero fill a step) [--piece 4096] (the size of each write of that fill: this
// kernel (6.18, ext4 large folios) caches a big write's pages as one folio, and an overwrite of part of it
// then writes the whole folio back: a 30 kB write into 1 MiB zero-fill writes costs ~1 MB of disk writes)
import { closeSync, constants, fdatasyncSync, fsyncSync, ftruncateSync, mkdtempSync, openSync, readFileSync, rmSync, writeSync } from 'node:fs';
import { join } from 'node:path';
import { arg, argString } from '../lib/bench-util.js';

const WRITES = arg('writes', 400);
const BYTES = arg('bytes', 30000);
const FILL = arg('fill', 64 << 10);
const PIECE = arg('piece', 4096);
const DIR = mkdtempSync(join(argString('dir') ?? '/tmp', 'log-probe-'));
const PAGE = 4096;

function diskWriteBytes(): number {
  const m = /write_bytes: (\d+)/.exec(readFileSync('/proc/self/io', 'utf8'));
  return m ? Number(m[1]) : NaN;
}

/** A file opened for the case, `prefill` bytes of zeros written and flushed first (then not timed). */
function openCase(dsync: boolean, prefill: number): number {
  const path = join(DIR, 'log');
  rmSync(path, { force: true });
  const fd = openSync(path, constants.O_RDWR | constants.O_CREAT | (dsync ? constants.O_DSYNC : 0), 0o644);
  ftruncateSync(fd, 0);
  const zeros = Buffer.alloc(PIECE);
  for (let at = 0; at < prefill; at += zeros.length) writeSync(fd, zeros, 0, Math.min(zeros.length, prefill - at), at);
  fsyncSync(fd);
  return fd;
}

/**
 * 'dsync': the zero fill written through the log's O_DSYNC descriptor, `piece` bytes a write (each one
 * flushed); 'plain': through a second descriptor without O_DSYNC, then one fdatasync for the step.
 */
type Ahead = 'dsync' | 'plain';
interface Case { name: string; dsync: boolean; prefill: boolean; pad: boolean; ahead?: Ahead; piece?: number }

function runCase(c: Case): void {
  const record = Buffer.alloc(BYTES, 0x5a);
  const padded = c.pad ? Math.ceil(BYTES / PAGE) * PAGE : BYTES;
  const total = padded * WRITES;
  const fd = openCase(c.dsync, c.prefill ? total + PAGE : 0);
  const piece = c.piece ?? PIECE;
  const zeros = Buffer.alloc(piece);
  const fillFd = c.ahead === 'plain' ? openSync(join(DIR, 'log'), constants.O_RDWR) : fd;
  let filled = 0;
  const ms: number[] = [];
  let fillMs = 0;
  const disk0 = diskWriteBytes();
  const t0 = performance.now();
  for (let i = 0, at = 0; i < WRITES; i++, at += padded) {
    if (c.ahead) {
      // the log's pattern: between rounds, zero-fill (flushed: O_DSYNC fd) ahead of where the rounds write
      const f0 = performance.now();
      if (filled < at + padded) {
        const to = at + padded + FILL;
        while (filled < to) filled += writeSync(fillFd, zeros, 0, piece, filled);
        if (c.ahead === 'plain') fdatasyncSync(fillFd);
      }
      fillMs += performance.now() - f0;
    }
    const s = performance.now();
    writeSync(fd, record, 0, BYTES, at);
    if (!c.dsync) fdatasyncSync(fd);
    ms.push(performance.now() - s);
  }
  const wall = performance.now() - t0;
  const disk = (diskWriteBytes() - disk0) / WRITES;
  closeSync(fd);
  if (fillFd !== fd) closeSync(fillFd);
  ms.sort((a, b) => a - b);
  const q = (p: number) => ms[Math.min(ms.length - 1, Math.floor(p * ms.length))]!.toFixed(3);
  const mean = ms.reduce((a, b) => a + b, 0) / ms.length;
  console.log(`${c.name.padEnd(44)} ${mean.toFixed(3).padStart(7)} ${q(0.5).padStart(7)} ${q(0.9).padStart(7)} ${q(0.99).padStart(7)} ${(disk / 1024).toFixed(1).padStart(8)} ${(wall / WRITES).toFixed(3).padStart(8)} ${(fillMs / WRITES).toFixed(3).padStart(7)}`);
}

const cases: Case[] = [
  { name: 'O_DSYNC extend', dsync: true, prefill: false, pad: false },
  { name: 'O_DSYNC overwrite (prefilled)', dsync: true, prefill: true, pad: false },
  { name: 'O_DSYNC overwrite, 4 kB aligned + padded', dsync: true, prefill: true, pad: true },
  { name: 'O_DSYNC extend, 4 kB aligned + padded', dsync: true, prefill: false, pad: true },
  { name: 'write+fdatasync extend', dsync: false, prefill: false, pad: false },
  { name: 'write+fdatasync overwrite (prefilled)', dsync: false, prefill: true, pad: false },
  { name: `ahead ${FILL >> 10} kB in ${PIECE >> 10} kB O_DSYNC writes`, dsync: true, prefill: false, pad: false, ahead: 'dsync' },
  { name: `ahead ${FILL >> 10} kB in ${PIECE >> 10} kB writes + fdatasync`, dsync: true, prefill: false, pad: false, ahead: 'plain' },
  { name: `ahead ${FILL >> 10} kB in one write + fdatasync`, dsync: true, prefill: false, pad: false, ahead: 'plain', piece: FILL },
];
/**
 * `--paired 1`: an O_DSYNC write that extends one file, then one that overwrites flushed zeros in another,
 * turn about, so both meet the same moment's disk (the machine is shared): the fair comparison under load.
 */
function runPaired(): void {
  const record = Buffer.alloc(BYTES, 0x5a);
  const extend = openCase(true, 0);
  const path = join(DIR, 'over');
  const over = openSync(path, constants.O_RDWR | constants.O_CREAT | constants.O_DSYNC, 0o644);
  const zeros = Buffer.alloc(PAGE);
  for (let at = 0; at < BYTES * WRITES + PAGE; at += PAGE) writeSync(over, zeros, 0, PAGE, at);
  fsyncSync(over);
  const times: [number[], number[]] = [[], []];
  for (let i = 0; i < WRITES; i++) {
    for (const [k, fd] of (i % 2 ? [[1, over], [0, extend]] : [[0, extend], [1, over]]) as [number, number][]) {
      const s = performance.now();
      writeSync(fd, record, 0, BYTES, i * BYTES);
      times[k]!.push(performance.now() - s);
    }
  }
  closeSync(extend);
  closeSync(over);
  for (const [k, name] of [[0, 'paired: O_DSYNC extend'], [1, 'paired: O_DSYNC overwrite of flushed zeros']] as [number, string][]) {
    const ms = times[k]!.sort((a, b) => a - b);
    const q = (p: number) => ms[Math.min(ms.length - 1, Math.floor(p * ms.length))]!.toFixed(3);
    console.log(`${name.padEnd(44)} ${(ms.reduce((a, b) => a + b, 0) / ms.length).toFixed(3).padStart(7)} ${q(0.5).padStart(7)} ${q(0.9).padStart(7)} ${q(0.99).padStart(7)}`);
  }
}

console.log(`${WRITES} writes of ${BYTES} bytes each case, in ${DIR}; load average ${readFileSync('/proc/loadavg', 'utf8').split(' ').slice(0, 3).join(' ')}`);
console.log(`${'case'.padEnd(44)} ${'mean'.padStart(7)} ${'p50'.padStart(7)} ${'p90'.padStart(7)} ${'p99'.padStart(7)} ${'disk kB'.padStart(8)} ${'wall'.padStart(8)} ${'fill'.padStart(7)}   (ms a write; disk kB a write; wall ms a write with the fill)`);
try {
  if (arg('paired', 0)) runPaired();
  else for (let pass = 0; pass < 2; pass++) for (const c of cases) runCase(c);
} finally {
  rmSync(DIR, { recursive: true, force: true });
}

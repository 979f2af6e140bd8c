// bench/store/write-log-ab.bench.ts: the write log alone (src/store/write-log/write-log.ts), this build's against a
// baseline build's, in one process, alternated in short spells so both meet the same moments of a shared disk.
// WRITERS writers each append a round of ROUND_BYTES, wait for it to be durable, wait TURN_MS (the server's
// turnaround: replies, the clients' next statements, parse), and append again: the group-commit pattern of
// 16 single-row INSERT clients without the server's CPU. Per build: records a second, writes a second,
// mean and p50/p90/p99 ms from a record's append to its durability, and disk kB written a record
// (/proc/self/io write_bytes: the log's records, and any zeros a build writes ahead of them).
// Run: npm run build && node dist/bench/store/write-log-ab.bench.js --baseline DIR [--spells 10] [--spell-ms 1500]
// [--writers 16] [--round-bytes 2000] [--turn-ms 1] [--dir /tmp]
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { arg, argString } from '../lib/bench-util.js';
import { LogDb, type LogRound, type WriteLog } from '../../src/store/write-log/write-log.js';

const SPELLS = arg('spells', 10);
const SPELL_MS = arg('spell-ms', 1500);
const WRITERS = arg('writers', 16);
const ROUND_BYTES = arg('round-bytes', 2000);
const TURN_MS = arg('turn-ms', 1);
const baseDir = argString('baseline');
if (!baseDir) throw new Error('--baseline DIR (a built checkout) is required');
const DIR = mkdtempSync(join(argString('dir') ?? '/tmp', 'write-log-ab-'));

type Open = (path: string) => { log: WriteLog | undefined };
const thisOpen: Open = (p) => WriteLogThis.open(p);
const { WriteLog: WriteLogThis } = await import('../../src/store/write-log/write-log.js');
const { WriteLog: WriteLogBase } = await import(resolve(baseDir, 'dist/src/store/write-log/write-log.js')) as { WriteLog: typeof WriteLogThis };
const baseOpen: Open = (p) => WriteLogBase.open(p);

function diskWriteBytes(): number {
  return Number(/write_bytes: (\d+)/.exec(readFileSync('/proc/self/io', 'utf8'))![1]);
}

interface Tally { records: number; ms: number[]; disk: number; wallMs: number; cpuMs: number }
const tallies = new Map<string, Tally>([['baseline', { records: 0, ms: [], disk: 0, wallMs: 0, cpuMs: 0 }], ['this', { records: 0, ms: [], disk: 0, wallMs: 0, cpuMs: 0 }]]);
let lastSeq = 0n;

/** One spell: a fresh log (as after a restart: the file emptied), WRITERS writers for SPELL_MS. */
async function spell(name: string, open: Open): Promise<void> {
  const path = join(DIR, `${name}.log`);
  rmSync(path, { force: true });
  const log = open(path).log!;
  const t = tallies.get(name)!;
  const value = Buffer.alloc(ROUND_BYTES, 0x61);
  const disk0 = diskWriteBytes();
  const cpu0 = process.cpuUsage();
  const t0 = performance.now();
  const until = t0 + SPELL_MS;
  await Promise.all(Array.from({ length: WRITERS }, async () => {
    while (performance.now() < until) {
      const seq = ++lastSeq;
      const round: LogRound = { gen: 1, lastSeq: seq, puts: [{ db: LogDb.DOCS, key: Buffer.from(seq.toString()), value }] };
      const s = performance.now();
      await log.append(round);
      t.ms.push(performance.now() - s);
      t.records++;
      await sleep(TURN_MS);
    }
  }));
  t.wallMs += performance.now() - t0;
  const cpu = process.cpuUsage(cpu0);
  t.cpuMs += (cpu.user + cpu.system) / 1000;
  const settle = (log as { settle?: () => Promise<void> }).settle;
  if (settle) await settle.call(log);
  t.disk += diskWriteBytes() - disk0;
  log.close();
}

console.log(`write log A/B: ${WRITERS} writers, ${ROUND_BYTES}-byte rounds, ${TURN_MS} ms turn, ${SPELLS} spells of ${SPELL_MS} ms each build; load average ${readFileSync('/proc/loadavg', 'utf8').split(' ').slice(0, 3).join(' ')}`);
try {
  for (let i = 0; i < SPELLS; i++) {
    const order: [string, Open][] = i % 2 ? [['this', thisOpen], ['baseline', baseOpen]] : [['baseline', baseOpen], ['this', thisOpen]];
    for (const [name, open] of order) await spell(name, open);
  }
} finally {
  rmSync(DIR, { recursive: true, force: true });
}
for (const [name, t] of tallies) {
  const ms = t.ms.sort((a, b) => a - b);
  const q = (p: number) => ms[Math.min(ms.length - 1, Math.floor(p * ms.length))]!.toFixed(3);
  const mean = ms.reduce((a, b) => a + b, 0) / ms.length;
  console.log(`${name.padEnd(9)} records/s ${Math.round(t.records / t.wallMs * 1000)}, append->durable ms mean ${mean.toFixed(3)} p50 ${q(0.5)} p90 ${q(0.9)} p99 ${q(0.99)}, disk kB/record ${(t.disk / t.records / 1024).toFixed(2)}, CPU ms/record ${(t.cpuMs / t.records).toFixed(4)}`);
}
console.log(`load average at the end ${readFileSync('/proc/loadavg', 'utf8').split(' ').slice(0, 3).join(' ')}`);

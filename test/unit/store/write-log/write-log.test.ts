// The write log of group-commit rounds: records read back whole, a torn or damaged tail and stale records
// after a reset end the log, and a store killed (SIGKILL) between a round's log flush and its lmdb apply
// keeps every acknowledged round, torn tail or not.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { closeSync, mkdtempSync, openSync, readFileSync, rmSync, statSync, writeSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { lastSeqOf, readCatalog } from '../../../../src/store/catalog.js';
import { docKey, genKey, opKey, u64Bytes } from '../../../../src/store/keys.js';
import { openDbs } from '../../../../src/store/lmdb-env.js';
import { Store } from '../../../../src/store/store.js';
import { decodeRounds, encodeRound, LogDb, setLsn, WRITE_LOG_FILE, WriteLog, type LogRound } from '../../../../src/store/write-log/write-log.js';
import { buildChild, runAndKill } from '../crash-harness.js';

let root: string;
beforeAll(() => { root = mkdtempSync(join(tmpdir(), 'quarry-write-log-')); });
afterAll(() => { rmSync(root, { recursive: true, force: true }); });

function round(gen: number, lastSeq: bigint, id: bigint, text: string): LogRound {
  return {
    gen,
    lastSeq,
    puts: [
      { db: LogDb.DOCS, key: docKey(gen, id), value: Buffer.from(text) },
      { db: LogDb.DOCS, key: docKey(gen, id + 1n), value: null },
      { db: LogDb.OPS, key: opKey(gen, lastSeq), value: Buffer.from('op') },
      { db: LogDb.SEQ, key: genKey(gen), value: u64Bytes(lastSeq) },
    ],
  };
}

function record(r: LogRound, lsn: bigint): Buffer {
  const b = encodeRound(r);
  setLsn(b, lsn);
  return b;
}

describe('write log records', () => {
  const rounds = [round(1, 1n, 10n, 'one'), round(1, 3n, 11n, 'two'), round(2, 7n, 12n, 'three')];
  const bytes = rounds.map((r, i) => record(r, 5n + BigInt(i)));
  const whole = Buffer.concat(bytes);

  it('reads back every record, in order, with the last lsn', () => {
    expect(decodeRounds(whole)).toEqual({ rounds, lastLsn: 7n, end: whole.length });
  });

  it('a torn last record (cut at any byte) ends the log before it', () => {
    const before = bytes[0]!.length + bytes[1]!.length;
    for (let cut = before; cut < whole.length; cut++) {
      expect(decodeRounds(whole.subarray(0, cut)).rounds).toEqual(rounds.slice(0, 2));
    }
  });

  it('a changed byte in the last record ends the log before it', () => {
    const start = bytes[0]!.length + bytes[1]!.length;
    for (const at of [start, start + 4, start + 8, start + 20, whole.length - 1]) {
      const damaged = Buffer.from(whole);
      damaged[at] ^= 0x40;
      expect(decodeRounds(damaged).rounds).toEqual(rounds.slice(0, 2));
    }
  });

  it('a record whose lsn does not follow (left from before a reset) ends the log', () => {
    const stale = Buffer.concat([bytes[0]!, record(rounds[1]!, 3n)]);
    expect(decodeRounds(stale).rounds).toEqual(rounds.slice(0, 1));
  });

  it('after a reset the next records go to offset 0 and the old ones after them read as stale', async () => {
    const path = join(root, 'reset.log');
    const first = WriteLog.open(path);
    expect(first.rounds).toEqual([]);
    const log = first.log!;
    for (const r of rounds) await log.append(r);
    log.reset();
    const again = round(3, 9n, 13n, 'after the reset');
    await log.append(again);
    log.close();
    expect(WriteLog.open(path, true).rounds).toEqual([again]);
  });

  it('records appended while a write is in flight go in one write, all durable when it resolves', async () => {
    const path = join(root, 'together.log');
    const log = WriteLog.open(path).log!;
    await Promise.all(rounds.map((r) => log.append(r)));
    log.close();
    expect(WriteLog.open(path, true).rounds).toEqual(rounds);
  });

  it('records staged while writes are in flight, in buffers reused from write to write and grown for big rounds, read back whole and in order', async () => {
    const path = join(root, 'staged.log');
    const log = WriteLog.open(path).log!;
    // small rounds in bursts (one write in flight, the next burst staged behind it), then rounds of 40-200 kB
    // (bigger than a staging buffer), then small ones again in the buffers those writes used
    const sizes = [...Array(40).fill(300), 40_000, 200_000, 90_000, ...Array(40).fill(500)];
    const all = sizes.map((n, i) => round(1, BigInt(i + 1), BigInt(2 * i), String.fromCharCode(97 + (i % 26)).repeat(n)));
    for (let i = 0; i < all.length; i += 7) await Promise.all(all.slice(i, i + 7).map((r) => log.append(r)));
    log.close();
    expect(WriteLog.open(path, true).rounds).toEqual(all);
  });
});

describe('rounds of one table through the log and straight to lmdb', () => {
  it('a big round queued while a logged round is still being written follows it (its documents and sequence stay)', async () => {
    const dir = join(root, 'order');
    const store = Store.open(dir);
    await store.createTable({ name: 't', columns: [{ name: 'title', type: 'text', indexed: true, stored: true }], settings: {} });
    const put = (id: number, title: string) => ({ op: 'put' as const, docId: BigInt(id), doc: { title } });
    // one after a quiet spell (straight to lmdb), one within LOG_AFTER_MS (through the log), then one
    // over LOG_MAX_BYTES queued while the second's record is still being written
    const big = 'x'.repeat(100 << 10);
    const rounds = [
      store.writeTogether('t', [[put(1, 'first')]]),
      store.writeTogether('t', [[put(2, 'logged')]]),
      store.writeTogether('t', [[put(2, 'last'), put(3, big)]]),
    ];
    const seqs = await Promise.all(rounds.flat());
    expect(seqs).toEqual([1n, 2n, 4n]);
    expect(store.getDoc('t', 2n)?.title).toBe('last');
    await store.close();
    const again = Store.open(dir);
    expect(again.getDoc('t', 2n)?.title).toBe('last');
    expect(await Promise.all(again.writeTogether('t', [[put(4, 'after')]]))).toEqual([5n]); // the sequence went on from 4
    await again.close();
  });
});

describe('the log under rounds back to back', () => {
  it('starts over at offset 0 once it holds logResetBytes, every round kept in order', async () => {
    const dir = join(root, 'bounded');
    const resetBytes = 64 << 10;
    const store = Store.open(dir, { logResetBytes: resetBytes });
    await store.createTable({ name: 't', columns: [{ name: 'title', type: 'text', indexed: true, stored: true }], settings: {} });
    const path = join(dir, WRITE_LOG_FILE);
    let largest = 0;
    // 4 clients, each awaiting its round before the next: about 1 MB of rounds, never a quiet spell
    await Promise.all([0, 1, 2, 3].map(async (c) => {
      for (let i = 0; i < 120; i++) {
        const title = `${c} ${i} ${'x'.repeat(2000)}`;
        await Promise.all(store.writeTogether('t', [[{ op: 'put', docId: BigInt(c), doc: { title } }, { op: 'put', docId: BigInt(100 + c * 1000 + i), doc: { title } }]]));
        largest = Math.max(largest, statSync(path).size);
      }
    }));
    expect(largest).toBeLessThan(2 * resetBytes);
    const check = (s: Store) => {
      for (let c = 0; c < 4; c++) {
        expect((s.getDoc('t', BigInt(c))?.title as string).slice(0, 8)).toBe(`${c} 119 xx`);
        for (let i = 0; i < 120; i++) expect(s.hasDoc('t', BigInt(100 + c * 1000 + i))).toBe(true);
      }
    };
    check(store);
    await store.close();
    const again = Store.open(dir);
    check(again);
    await again.close();
  });
});

describe('a store killed while its rounds go through the write log', () => {
  const KILLS = 6;
  let child: string;
  beforeAll(() => { child = buildChild(); });

  /** Rounds in the log past lmdb's sequence record: written to the log and not (yet) to lmdb. */
  function roundsLmdbLacks(dir: string): number {
    const { rounds } = decodeRounds(readFileSync(join(dir, WRITE_LOG_FILE)));
    const dbs = openDbs(join(dir, 'store'), true);
    try {
      const gen = readCatalog(dbs).get('c')!.gen;
      const inLmdb = lastSeqOf(dbs, gen) ?? -1n;
      return rounds.filter((r) => r.gen === gen && r.lastSeq > inLmdb).length;
    } finally {
      void dbs.env.close();
    }
  }

  it('keeps every acknowledged round, applies the log at open, and ignores a torn tail', async () => {
    const dir = join(root, 'killed');
    /** id -> the round number of its last acknowledged write. */
    const acked = new Map<string, number>();
    let lacking = 0;
    for (let k = 0; k < KILLS; k++) {
      const res = await runAndKill(child, [dir, 'rounds', String(k + 1)], 150 + 40 * k);
      expect(res.killed, res.stderr).toBe(true);
      for (const line of res.lines) {
        const [kind, id, title] = line.split(' ');
        if (kind === 'ROUND') acked.set(id!, Math.max(acked.get(id!) ?? -1, roundOf(title!)));
      }
      lacking += roundsLmdbLacks(dir);
      if (k === KILLS - 1) tearTail(dir);
      const store = Store.open(dir);
      try {
        for (const [id, r] of acked) {
          const doc = store.getDoc('c', BigInt(id));
          expect(doc, `acked id ${id}`).toBeDefined();
          // the same id is rewritten by later rounds: never older than its last acknowledged one
          expect(roundOf(doc!.title as string)).toBeGreaterThanOrEqual(r);
        }
        expect(store.getDoc('c', TORN_ID)).toBeUndefined();
      } finally {
        await store.close();
      }
      expect(readFileSync(join(dir, WRITE_LOG_FILE)).length).toBe(0); // applied and emptied at open and close
    }
    expect(acked.size).toBeGreaterThan(0);
    // kills between a round's log flush and its lmdb commit happened: the log carried rounds lmdb lacked
    expect(lacking).toBeGreaterThan(0);
  }, 120_000);
});

/** The round number in a crash child's title `r<run>.<round>.<writer>`, runs weighted so later runs compare higher. */
function roundOf(title: string): number {
  const [run, r] = title.slice(1).split('.').map(Number);
  return run! * 1e6 + r!;
}

const TORN_ID = 999_999_999n;

/** Writes after the log's live records one that would add TORN_ID with the next lsn, cut short as a crash mid-write leaves it. */
function tearTail(dir: string): void {
  const path = join(dir, WRITE_LOG_FILE);
  const { lastLsn, end } = decodeRounds(readFileSync(path));
  const dbs = openDbs(join(dir, 'store'), true);
  const gen = readCatalog(dbs).get('c')!.gen;
  void dbs.env.close();
  const r = record(round(gen, 1n << 40n, TORN_ID, 'torn'), (lastLsn ?? 0n) + 1n);
  const fd = openSync(path, 'r+');
  writeSync(fd, r, 0, r.length - 3, end);
  closeSync(fd);
}

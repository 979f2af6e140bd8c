// A write log damaged on disk (a flipped bit, a bad sector) rather than cut by a crash: whole records
// with later lsns follow the damaged one. Opening applies the rounds before the damage, says that the
// later ones were not applied (acknowledged writes may be missing) and keeps the file; a torn tail or
// stale records after a reset, which a crash leaves, are read as before, without a word.
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { lastSeqOf, readCatalog } from '../../../../src/store/catalog.js';
import { docKey, genKey, opKey, u64Bytes } from '../../../../src/store/keys.js';
import { openDbs } from '../../../../src/store/lmdb-env.js';
import { Store } from '../../../../src/store/store.js';
import { decodeRounds, encodeRound, LogDb, setLsn, wholeRecordsAfter, WRITE_LOG_FILE, type LogRound } from '../../../../src/store/write-log/write-log.js';

let root: string;
beforeAll(() => { root = mkdtempSync(join(tmpdir(), 'quarry-write-log-damage-')); });
afterAll(() => { rmSync(root, { recursive: true, force: true }); });
afterEach(() => { vi.restoreAllMocks(); });

function round(gen: number, lastSeq: bigint): LogRound {
  return {
    gen,
    lastSeq,
    puts: [
      { db: LogDb.DOCS, key: docKey(gen, lastSeq), value: Buffer.from(`doc ${lastSeq}`) },
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

/** Records of rounds 1..n with lsns from `lsn`; `flip`: the record whose body gets one bit changed. */
function log(n: number, lsn: bigint, flip?: number, gen = 1): { bytes: Buffer; starts: number[] } {
  const recs = Array.from({ length: n }, (_, i) => record(round(gen, BigInt(i + 1)), lsn + BigInt(i)));
  if (flip !== undefined) recs[flip]![recs[flip]!.length - 2] ^= 0x10;
  const starts = recs.map((_, i) => recs.slice(0, i).reduce((s, r) => s + r.length, 0));
  return { bytes: Buffer.concat(recs), starts };
}

describe('whole records after the end of the live log', () => {
  it('a flipped bit in a middle record: the records after it are counted', () => {
    const { bytes, starts } = log(4, 7n, 1);
    const d = decodeRounds(bytes);
    expect(d.rounds.map((r) => r.lastSeq)).toEqual([1n]);
    expect(d.end).toBe(starts[1]);
    expect(wholeRecordsAfter(bytes, d.end, d.lastLsn)).toBe(2);
  });

  it('a flipped bit in the first record: counted against the lsn in its header', () => {
    const { bytes } = log(3, 100n, 0);
    const d = decodeRounds(bytes);
    expect(d.rounds).toEqual([]);
    expect(wholeRecordsAfter(bytes, d.end, d.lastLsn)).toBe(2);
  });

  it('a torn tail (cut at any byte of the last record) leaves none', () => {
    const { bytes, starts } = log(3, 1n);
    for (let cut = starts[2]!; cut < bytes.length; cut++) {
      const d = decodeRounds(bytes.subarray(0, cut));
      expect(wholeRecordsAfter(bytes.subarray(0, cut), d.end, d.lastLsn)).toBe(0);
    }
  });

  it('a changed byte in the last record leaves none (a crash mid-write looks the same)', () => {
    const { bytes } = log(3, 1n, 2);
    const d = decodeRounds(bytes);
    expect(d.rounds).toHaveLength(2);
    expect(wholeRecordsAfter(bytes, d.end, d.lastLsn)).toBe(0);
  });

  it('stale records after a reset (lower lsns) leave none, a torn record at offset 0 included', () => {
    const old = log(5, 1n).bytes;
    const fresh = record(round(1, 9n), 40n);
    const reset = Buffer.from(old);
    fresh.copy(reset, 0);
    let d = decodeRounds(reset);
    expect(d.rounds).toHaveLength(1);
    expect(wholeRecordsAfter(reset, d.end, d.lastLsn)).toBe(0);
    reset[fresh.length - 1] ^= 0x01; // the fresh record torn: stale ones still follow
    d = decodeRounds(reset);
    expect(d.rounds).toEqual([]);
    expect(wholeRecordsAfter(reset, d.end, d.lastLsn)).toBe(0);
    reset.fill(0, 0, 16); // its header never written
    expect(wholeRecordsAfter(reset, 0, undefined)).toBe(0);
  });
});

describe('opening a store whose write log is damaged', () => {
  /** A store with table 't' (closed, log empty) and its generation. */
  async function storeWithTable(name: string): Promise<{ dir: string; gen: number }> {
    const dir = join(root, name);
    const store = Store.open(dir);
    await store.createTable({ name: 't', columns: [], settings: {} });
    await store.close();
    const dbs = openDbs(join(dir, 'store'), true);
    const gen = readCatalog(dbs).get('t')!.gen;
    void dbs.env.close();
    return { dir, gen };
  }

  function seqInLmdb(dir: string, gen: number): bigint | undefined {
    const dbs = openDbs(join(dir, 'store'), true);
    try {
      return lastSeqOf(dbs, gen);
    } finally {
      void dbs.env.close();
    }
  }

  it('applies the rounds before the damage, says the later ones were not applied, keeps the file', async () => {
    const { dir, gen } = await storeWithTable('flipped');
    const { bytes, starts } = log(4, 1n, 1, gen);
    writeFileSync(join(dir, WRITE_LOG_FILE), bytes);
    const said: string[] = [];
    vi.spyOn(console, 'error').mockImplementation((line: string) => { said.push(String(line)); });
    const store = Store.open(dir);
    await store.close();
    expect(seqInLmdb(dir, gen)).toBe(1n);
    const kept = readdirSync(dir).filter((f) => f.startsWith(`${WRITE_LOG_FILE}.damaged-`));
    expect(kept).toHaveLength(1);
    expect(readFileSync(join(dir, kept[0]!)).equals(bytes)).toBe(true);
    expect(said).toEqual([expect.stringMatching(new RegExp(`^quarry: write log \\S+ is damaged at byte ${starts[1]}: 2 whole record\\(s\\) after it were not applied, so writes acknowledged before the last stop may be missing; the log is kept as \\S+${kept[0]!.replace('.', '\\.')}$`))]);
    expect(readFileSync(join(dir, WRITE_LOG_FILE)).length).toBe(0);
  });

  it('a torn tail is applied up to the tear without a word or a kept file', async () => {
    const { dir, gen } = await storeWithTable('torn');
    const { bytes } = log(3, 1n, undefined, gen);
    writeFileSync(join(dir, WRITE_LOG_FILE), bytes.subarray(0, bytes.length - 5));
    const said = vi.spyOn(console, 'error').mockImplementation(() => undefined);
    const store = Store.open(dir);
    await store.close();
    expect(seqInLmdb(dir, gen)).toBe(2n);
    expect(readdirSync(dir).filter((f) => f.includes('damaged'))).toEqual([]);
    expect(said).not.toHaveBeenCalled();
  });
});

// Crash-safety proof: a child writes, checkpoints and truncates; we SIGKILL it at random moments,
// reopen the store and check that acknowledged work survived, nothing is half-applied, the manifest
// is old or new (never torn), and checkpoint + opsSince replay give exactly the stored documents.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Store } from '../../../src/store/store.js';
import { parseManifest } from '../../../src/store/manifest.js';
import type { LoggedOp, StoredDoc } from '../../../src/store/types.js';
import { buildChild, runAndKill } from './crash-harness.js';

/** Kills per mode; each one restarts the child on the same data directory. */
const ROUNDS = 15;
/** Widens the window between the fsynced temp manifest and its rename, to land kills inside it. */
const SWAP_DELAY_MS = '15';

interface Acks {
  batches: Map<bigint, { seq: bigint; n: number }>; // first id -> last seq of the batch, size
  maxSeq: bigint;
  ckpt: { seq: bigint; names: string[] } | null;
  trunc: bigint;
}

function record(acks: Acks, lines: string[]): void {
  for (const line of lines) {
    const [kind, a, b, c] = line.split(' ');
    if (kind === 'ACK') {
      acks.batches.set(BigInt(b), { seq: BigInt(a), n: Number(c) });
      if (BigInt(a) > acks.maxSeq) acks.maxSeq = BigInt(a);
    } else if (kind === 'CKPT') acks.ckpt = { seq: BigInt(a), names: b.split(',') };
    else if (kind === 'TRUNC') acks.trunc = BigInt(a);
  }
}

/** Manifests on disk before reopening (the store cleans temp files at open). */
function manifestsOnDisk(dataDir: string): { gen: string; text?: string; tmp: boolean }[] {
  const tables = join(dataDir, 'tables');
  if (!existsSync(tables)) return [];
  return readdirSync(tables).map((gen) => {
    const m = join(tables, gen, 'manifest.json');
    return { gen, text: existsSync(m) ? readFileSync(m, 'utf8') : undefined, tmp: existsSync(`${m}.tmp`) };
  });
}

/** Batches each child run may have in flight when killed: committed, not yet acknowledged. */
const IN_FLIGHT: Record<string, number> = { writes: 4, checkpoint: 1, truncate: 2 };

/**
 * Ops of the tail must come in whole batches (n puts, then the update, consecutive seqs), an
 * acknowledged one at its acknowledged seq.
 */
function checkWholeBatches(ops: LoggedOp[], acks: Acks): void {
  for (let k = 0; k < ops.length;) {
    const head = ops[k];
    expect(head.op).toBe('put');
    const { first, n } = (head as { doc: StoredDoc }).doc as { first: bigint; n: number };
    for (let i = 0; i <= n; i++) {
      const o = ops[k + i];
      expect(o.seq).toBe(head.seq + BigInt(i));
      if (i < n) expect(o).toMatchObject({ op: 'put', docId: first + BigInt(i) });
      else expect(o).toMatchObject({ op: 'update', docId: first, values: { done: true } });
    }
    const ack = acks.batches.get(first);
    if (ack) expect(ack.seq).toBe(head.seq + BigInt(n));
    k += n + 1;
  }
}

/** Visible documents must form whole batches, each marked done. Returns the batches' first ids. */
function checkDocs(docs: [bigint, StoredDoc][]): Set<bigint> {
  const groups = new Map<bigint, StoredDoc[]>();
  for (const [id, d] of docs) {
    const first = d.first as bigint;
    expect(id).toBe(first + BigInt(d.i as number));
    groups.set(first, [...(groups.get(first) ?? []), d]);
  }
  for (const [, g] of groups) {
    expect(g.length).toBe(g[0].n);
    expect(g[0].done).toBe(true);
  }
  return new Set(groups.keys());
}

async function verify(
  dataDir: string, mode: string, acks: Acks, run: number,
): Promise<{ tmpHit: boolean; unacked: number; base: bigint }> {
  const before = manifestsOnDisk(dataDir);
  for (const m of before) if (m.text !== undefined) parseManifest(m.text, m.gen); // never torn
  const store = Store.open(dataDir);
  try {
    const ck = store.loadCheckpoint('c');
    const ops = [...store.opsSince('c', ck.lastSeq)];
    checkWholeBatches(ops, acks);
    const visible = checkDocs([...store.docs('c')]);
    // committed but unacknowledged: at most what one run had in flight when it was killed
    const perRun = new Map<bigint, number>();
    for (const first of visible) {
      if (!acks.batches.has(first)) perRun.set(first / 1_000_000n, (perRun.get(first / 1_000_000n) ?? 0) + 1);
    }
    for (const [, count] of perRun) expect(count).toBeLessThanOrEqual(IN_FLIGHT[mode]);
    // checkpoint state + replayed tail = exactly the stored documents
    const ids = new Set<string>(ck.segments.flatMap((s) => JSON.parse(Buffer.from(s.bytes).toString()) as string[]));
    for (const o of ops) if (o.op === 'put') ids.add(String(o.docId));
    expect([...ids].sort()).toEqual([...store.docs('c')].map(([id]) => String(id)).sort());
    const base = mode === 'truncate' ? ck.lastSeq : 0n;
    if (mode === 'truncate') expect(base).toBeGreaterThanOrEqual(acks.trunc);
    if (mode === 'checkpoint' && acks.ckpt) {
      expect(ck.lastSeq).toBeGreaterThanOrEqual(acks.ckpt.seq);
      if (ck.lastSeq === acks.ckpt.seq) expect(ck.segments.map((s) => s.name)).toEqual(acks.ckpt.names);
    }
    for (const [first, a] of acks.batches) expect(visible.has(first)).toBe(a.seq > base);
    if (mode === 'checkpoint' && ck.segments.length) {
      // reopening removed what the crash left behind: only the manifest and its segments remain
      const [live] = readdirSync(join(dataDir, 'tables'));
      const files = readdirSync(join(dataDir, 'tables', live)).sort();
      expect(files).toEqual(['manifest.json', ...ck.segments.map((s) => s.name)].sort());
    }
    return {
      tmpHit: before.some((m) => m.tmp),
      unacked: perRun.get(BigInt(run)) ?? 0,
      base,
    };
  } finally {
    await store.close();
  }
}

let childJs: string;
const dirs: string[] = [];
beforeAll(() => {
  childJs = buildChild();
  dirs.push(join(childJs, '../../../..'));
});
afterAll(() => {
  for (const d of dirs) rmSync(d, { recursive: true, force: true });
});

describe.each(['writes', 'checkpoint', 'truncate'])('Store survives SIGKILL (%s)', (mode) => {
  it('keeps every acknowledged write and never shows a partial one', async () => {
    const dataDir = mkdtempSync(join(tmpdir(), `quarry-crash-${mode}-`));
    dirs.push(dataDir);
    const acks: Acks = { batches: new Map(), maxSeq: 0n, ckpt: null, trunc: 0n };
    let tmpHits = 0;
    let unacked = 0;
    let truncHits = 0;
    let lastBase = 0n;
    for (let run = 1; run <= ROUNDS; run++) {
      const killAfter = 10 + Math.floor(Math.random() * 350);
      const res = await runAndKill(childJs, [dataDir, mode, String(run)], killAfter, { QUARRY_SWAP_DELAY_MS: SWAP_DELAY_MS });
      expect(res.killed, res.stderr).toBe(true);
      record(acks, res.lines);
      const v = await verify(dataDir, mode, acks, run);
      if (v.tmpHit) tmpHits++;
      unacked += v.unacked;
      // a new truncate committed but the kill came before its acknowledgement
      if (v.base !== lastBase && v.base > acks.trunc) truncHits++;
      lastBase = v.base;
    }
    expect(acks.batches.size).toBeGreaterThan(ROUNDS / 2); // the runs did write
    // the kills must have landed inside the manifest swap window at least once
    if (mode === 'checkpoint') expect(tmpHits).toBeGreaterThan(0);
    console.log(`${mode}: ${acks.batches.size} batches acknowledged, ${unacked} batches committed but killed before their acknowledgement, ${tmpHits} inside the manifest swap, ${truncHits} after an unacknowledged truncate`);
  }, 180_000);
});

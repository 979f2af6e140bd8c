// Child process of the crash test: writes to a Store and prints each acknowledged step, until killed.
// Usage: node crash-child.js <dataDir> <writes|checkpoint|truncate|rounds> <run>; env QUARRY_SWAP_DELAY_MS.
import { Store } from '../../../src/store/store.js';
import type { WriteOp } from '../../../src/store/types.js';

const [dataDir, mode, runArg] = process.argv.slice(2);
const run = BigInt(runArg);
const TABLE = 'c';
/** Writers in flight at once in `writes` mode, so commits are shared. */
const WRITERS = 4;
/** Segments kept before a checkpoint merges them all into one (exercises file deletion). */
const MAX_SEGMENTS = 3;

const out = (line: string) => process.stdout.write(line + '\n');
const store = Store.open(dataDir, { manifestSwapDelayMs: Number(process.env.QUARRY_SWAP_DELAY_MS ?? 0) });
if (!store.getTable(TABLE)) await store.createTable({ name: TABLE, columns: [], settings: {} });

let batchNo = 0;
/** A batch: n puts with ids first..first+n-1, then an update marking the first doc done. */
function nextBatch(): { first: bigint; n: number; ops: WriteOp[] } {
  const b = batchNo++;
  const n = 1 + ((b * 7) % 13);
  const first = run * 1_000_000n + BigInt(b) * 100n;
  const ops: WriteOp[] = [];
  for (let i = 0; i < n; i++) {
    ops.push({ op: 'put', docId: first + BigInt(i), doc: { first, n, i, pad: 'x'.repeat(200) } });
  }
  ops.push({ op: 'update', docId: first, values: { done: true } });
  return { first, n, ops };
}

async function writeOne(): Promise<bigint> {
  const b = nextBatch();
  const seq = await store.write(TABLE, b.ops);
  out(`ACK ${seq} ${b.first} ${b.n}`);
  return seq;
}

async function writesMode(): Promise<void> {
  await Promise.all(Array.from({ length: WRITERS }, async () => {
    for (;;) await writeOne();
  }));
}

/** Sequential writes, each followed by an incremental checkpoint whose segment lists new ids. */
async function checkpointMode(): Promise<void> {
  const ck = store.loadCheckpoint(TABLE);
  let names = ck.segments.map((s) => s.name);
  const all = new Set<string>(ck.segments.flatMap((s) => JSON.parse(Buffer.from(s.bytes).toString()) as string[]));
  let pending: string[] = [];
  for (const op of store.opsSince(TABLE, ck.lastSeq)) if (op.op === 'put') pending.push(String(op.docId));
  for (let k = 0; ; k++) {
    const b = nextBatch();
    const seq = await store.write(TABLE, b.ops);
    out(`ACK ${seq} ${b.first} ${b.n}`);
    for (let i = 0; i < b.n; i++) pending.push(String(b.first + BigInt(i)));
    pending.forEach((id) => all.add(id));
    const name = `s${run}_${k}`;
    const merge = names.length >= MAX_SEGMENTS;
    const ids = merge ? [...all] : pending;
    const entries = [...(merge ? [] : names.map((n) => ({ name: n }))), { name, bytes: Buffer.from(JSON.stringify(ids)) }];
    await store.saveCheckpoint(TABLE, entries, seq);
    names = entries.map((e) => e.name);
    pending = [];
    out(`CKPT ${seq} ${names.join(',')}`);
    if (k % 2 === 1) await store.pruneOps(TABLE, seq);
  }
}

/** Two writers; one of them truncates every fourth batch. */
async function truncateMode(): Promise<void> {
  const truncater = async () => {
    for (let k = 1; ; k++) {
      await writeOne();
      if (k % 4 === 0) {
        await store.truncate(TABLE);
        out(`TRUNC ${store.loadCheckpoint(TABLE).lastSeq}`);
      }
    }
  };
  const writer = async () => {
    for (;;) await writeOne();
  };
  await Promise.all([truncater(), writer()]);
}

/**
 * Group-commit rounds back to back (writeTogether: through the write log), WRITERS calls a round;
 * prints `ROUND <id> <title>` for each acknowledged put (ids rewritten by later rounds too).
 */
async function roundsMode(): Promise<void> {
  for (let r = 0; ; r++) {
    const calls = Array.from({ length: WRITERS }, (_, w) => {
      const id = run * 1_000_000n + BigInt((r * WRITERS + w) % 500);
      return { id, title: `r${run}.${r}.${w}`, ops: [{ op: 'put', docId: id, doc: { title: `r${run}.${r}.${w}`, pad: 'y'.repeat(300) } } as WriteOp] };
    });
    const done = store.writeTogether(TABLE, calls.map((c) => c.ops));
    await Promise.all(done.map((p, i) => p.then(() => out(`ROUND ${calls[i]!.id} ${calls[i]!.title}`))));
  }
}

out('READY');
if (mode === 'writes') await writesMode();
else if (mode === 'checkpoint') await checkpointMode();
else if (mode === 'truncate') await truncateMode();
else if (mode === 'rounds') await roundsMode();
else throw new Error(`unknown mode ${mode}`);

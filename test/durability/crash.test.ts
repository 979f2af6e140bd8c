/**
 * Kill -9 the real server while concurrent clients write, many times, then check on restart that
 * every acknowledged write is there, unacknowledged statements are all-or-nothing, and updates and
 * deletes made after the last checkpoint survive. Checkpoints (segment files + manifest swap) and
 * merges run often through QUARRY_CHECKPOINT_MS so kills land inside them too.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { startServer, type ServerProcess } from '../helpers/server-process.js';

const ROUNDS = 6;
const WRITERS = 4;
const BATCH = 20;

interface Ledger {
  /** id -> n value acknowledged last (inserted or updated). */
  acked: Map<number, number>;
  /** ids whose DELETE was acknowledged. */
  deleted: Set<number>;
  /** Every attempted insert batch (acknowledged or not): its ids. */
  batches: number[][];
  /** Unacknowledged updates/deletes in flight at the kill: either outcome is allowed. */
  maybe: Map<number, number | 'deleted'>;
}

function ok(res: unknown): boolean {
  return Array.isArray(res) && res.every((r) => !(r as { error?: string }).error);
}

async function writer(s: ServerProcess, w: number, round: number, ledger: Ledger, stop: { now: boolean }) {
  for (let b = 0; !stop.now; b++) {
    const base = (round * 1000 + w * 100 + b) * BATCH + 1;
    const ids = Array.from({ length: BATCH }, (_, i) => base + i);
    ledger.batches.push(ids);
    const values = ids.map((id) => `(${id}, 'doc number ${id} round ${round}', ${id % 97})`).join(',');
    try {
      if (!ok(await s.sql(`INSERT INTO t (id, title, n) VALUES ${values}`))) return;
      ids.forEach((id) => ledger.acked.set(id, id % 97));
      if (b % 3 === 1) {
        ledger.maybe.set(ids[0], 1000);
        if (ok(await s.sql(`UPDATE t SET n=1000 WHERE id=${ids[0]}`))) ledger.acked.set(ids[0], 1000);
        ledger.maybe.delete(ids[0]);
        ledger.maybe.set(ids[1], 'deleted');
        if (ok(await s.sql(`DELETE FROM t WHERE id=${ids[1]}`))) { ledger.acked.delete(ids[1]); ledger.deleted.add(ids[1]); }
        ledger.maybe.delete(ids[1]);
      }
    } catch {
      return; // the connection died with the server: this batch is unacknowledged
    }
  }
}

/**
 * One sequential writer on table u: insert batches, and now and then TRUNCATE. After a restart, u must
 * hold exactly the batches acknowledged since the last acknowledged TRUNCATE, give or take the one
 * statement in flight at the kill (a whole batch, or a truncate that did or did not happen).
 */
interface TruncLedger { live: number[][]; inFlight?: { kind: 'insert'; ids: number[] } | { kind: 'truncate' } }

async function truncWriter(s: ServerProcess, round: number, t: TruncLedger, stop: { now: boolean }) {
  for (let b = 0; !stop.now; b++) {
    try {
      if (b % 5 === 4) {
        t.inFlight = { kind: 'truncate' };
        if (!ok(await s.sql('TRUNCATE TABLE u'))) return;
        t.live = [];
      } else {
        const base = 10_000_000 + (round * 1000 + b) * BATCH;
        const ids = Array.from({ length: BATCH }, (_, i) => base + i);
        t.inFlight = { kind: 'insert', ids };
        if (!ok(await s.sql(`INSERT INTO u (id, title) VALUES ${ids.map((id) => `(${id}, 'x ${id}')`).join(',')}`))) return;
        t.live.push(ids);
      }
      t.inFlight = undefined;
    } catch {
      return;
    }
  }
}

function checkTruncLedger(t: TruncLedger, found: Set<number>): void {
  const expected = new Set(t.live.flat());
  const f = t.inFlight;
  if (f?.kind === 'truncate' && found.size === 0) expected.clear();
  if (f?.kind === 'insert' && f.ids.every((id) => found.has(id))) f.ids.forEach((id) => expected.add(id));
  expect([...found].sort()).toEqual([...expected].sort());
}

async function allRows(s: ServerProcess): Promise<Map<number, number>> {
  const res = (await s.sql('SELECT id, n FROM t LIMIT 1000000 OPTION max_matches=1000000')) as { data: { id: number; n: number }[] }[];
  return new Map(res[0].data.map((r) => [Number(r.id), Number(r.n)]));
}

describe('crash safety of the real server', () => {
  it(`keeps every acknowledged write over ${ROUNDS} kill -9 rounds`, async () => {
    const dir = mkdtempSync(join(tmpdir(), 'quarry-crash-'));
    const env = { QUARRY_CHECKPOINT_MS: '30' };
    const ledger: Ledger = { acked: new Map(), deleted: new Set(), batches: [], maybe: new Map() };
    let s: ServerProcess | undefined;
    try {
      s = await startServer(dir, env);
      expect(ok(await s.sql('CREATE TABLE t (title text, n int)'))).toBe(true);
      expect(ok(await s.sql('CREATE TABLE u (title text)'))).toBe(true);
      const trunc: TruncLedger = { live: [] };
      for (let round = 0; round < ROUNDS; round++) {
        const stop = { now: false };
        const killed = s; // this round's server, the one its writers talk to until the kill
        const writers = Array.from({ length: WRITERS }, (_, w) => writer(killed, w, round, ledger, stop));
        writers.push(truncWriter(killed, round, trunc, stop));
        await new Promise((r) => setTimeout(r, 150 + Math.random() * 400));
        killed.proc.kill('SIGKILL');
        stop.now = true;
        await Promise.all(writers);
        if (killed.proc.exitCode === null && killed.proc.signalCode === null) await new Promise((r) => killed.proc.once('exit', r));
        s = await startServer(dir, env);
        const found = await allRows(s);
        for (const [id, n] of ledger.acked) {
          const alt = ledger.maybe.get(id);
          const got = found.has(id) ? found.get(id) : 'deleted';
          expect([n, ...(alt === undefined ? [] : [alt])], `acknowledged id ${id}`).toContain(got);
        }
        for (const id of ledger.deleted) expect(found.has(id), `deleted id ${id}`).toBe(false);
        for (const ids of ledger.batches) {
          const present = ids.filter((id) => found.has(id) || ledger.deleted.has(id) || ledger.maybe.get(id) === 'deleted').length;
          expect([0, ids.length], `batch starting ${ids[0]} half-applied`).toContain(present);
        }
        const u = (await s.sql('SELECT id FROM u LIMIT 1000000 OPTION max_matches=1000000')) as { data: { id: number }[] }[];
        const uFound = new Set(u[0].data.map((r) => Number(r.id)));
        checkTruncLedger(trunc, uFound);
        trunc.live = uFound.size ? [[...uFound]] : [];
        trunc.inFlight = undefined;
        // What survived is durable from now on: it becomes the acknowledged state.
        ledger.acked = new Map(found);
        for (const [id, v] of ledger.maybe) if (v === 'deleted' && !found.has(id)) ledger.deleted.add(id);
        ledger.maybe.clear();
      }
      expect(await s.stop()).toBe(0);
    } finally {
      s?.proc.kill('SIGKILL'); // a failed assertion must not leave a server behind
      rmSync(dir, { recursive: true, force: true });
    }
  }, 240_000);
});

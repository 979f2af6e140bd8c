/**
 * Group commit under kill -9: many clients send single-row INSERTs and REPLACEs at once, so their
 * statements share commits, while one more client DELETEs acknowledged rows (its writes take the
 * table's mutex between rounds); the server is killed mid-stream, and on restart every acknowledged
 * row must be there with its acknowledged value and every acknowledged DELETE must hold (an
 * acknowledgement never comes before its commit).
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { startServer, type ServerProcess } from '../helpers/server-process.js';

const ROUNDS = 4;
const CLIENTS = 16;
/** Every REPLACE_EVERY-th statement of a client replaces its previous row instead of inserting. */
const REPLACE_EVERY = 4;

function ok(res: unknown): boolean {
  return Array.isArray(res) && res.every((r) => !(r as { error?: string }).error);
}

/**
 * id -> acknowledged value of n; in flight: id -> value a statement not yet acknowledged may have
 * written (or, for a DELETE, the value it may not have removed yet); DELETEs acknowledged.
 */
interface Ledger { acked: Map<number, number>; inFlight: Map<number, number>; deleted: number }

async function client(s: ServerProcess, c: number, round: number, ledger: Ledger, stop: { now: boolean }): Promise<void> {
  let last = 0;
  for (let k = 0; !stop.now; k++) {
    const replace = last !== 0 && k % REPLACE_EVERY === 0;
    const id = replace ? last : (round * CLIENTS + c) * 100_000 + k + 1;
    const n = k + 1;
    ledger.inFlight.set(id, n);
    try {
      const verb = replace ? 'REPLACE' : 'INSERT';
      if (!ok(await s.sql(`${verb} INTO t (id, title, n) VALUES (${id}, 'row ${id} client ${c}', ${n})`))) return;
    } catch {
      return; // the server died: this statement is unacknowledged
    }
    ledger.inFlight.delete(id);
    ledger.acked.set(id, n);
    last = id;
  }
}

/**
 * DELETEs rows acknowledged in earlier rounds (no writer of this round touches them), one at a time:
 * an acknowledged DELETE takes the row out of the ledger, one in flight may have happened or not.
 */
async function deleter(s: ServerProcess, ledger: Ledger, stop: { now: boolean }, earlier: number[], acked: () => void): Promise<void> {
  for (const id of earlier) {
    if (stop.now) return;
    ledger.inFlight.set(id, ledger.acked.get(id)!);
    ledger.acked.delete(id);
    try {
      if (!ok(await s.sql(`DELETE FROM t WHERE id = ${id}`))) return;
    } catch {
      return;
    }
    ledger.inFlight.delete(id);
    ledger.deleted++;
    acked();
  }
}

async function allRows(s: ServerProcess): Promise<Map<number, number>> {
  const res = (await s.sql('SELECT id, n FROM t LIMIT 1000000 OPTION max_matches=1000000')) as { data: { id: number; n: number }[] }[];
  return new Map(res[0].data.map((r) => [Number(r.id), Number(r.n)]));
}

describe('group commit of concurrent single-row writes', () => {
  it(`acknowledges only committed rows over ${ROUNDS} kill -9 rounds of ${CLIENTS} clients`, async () => {
    const dir = mkdtempSync(join(tmpdir(), 'quarry-group-crash-'));
    const ledger: Ledger = { acked: new Map(), inFlight: new Map(), deleted: 0 };
    let s: ServerProcess | undefined;
    try {
      s = await startServer(dir);
      expect(ok(await s.sql('CREATE TABLE t (title text, n int)'))).toBe(true);
      for (let round = 0; round < ROUNDS; round++) {
        const stop = { now: false };
        const earlier = [...ledger.acked.keys()].filter((_, i) => i % 2 === 0); // half: the rest stays acknowledged
        const clients = Array.from({ length: CLIENTS }, (_, c) => client(s!, c, round, ledger, stop));
        let firstDelete!: () => void;
        const deleted = new Promise<void>((r) => { firstDelete = r; });
        clients.push(deleter(s, ledger, stop, earlier, () => firstDelete()));
        // a DELETE gets its turn between the INSERTs' rounds (they would starve it otherwise): wait for one
        if (earlier.length) await deleted;
        // and for a write of this round acknowledged (under load, 300-700 ms can pass before the first
        // one: a kill then tests nothing, seen in a full `npm test` at load 24); then kill at a random point
        const mine = (id: number) => id >= round * CLIENTS * 100_000 && id < (round + 1) * CLIENTS * 100_000;
        for (const end = Date.now() + 30_000; Date.now() < end && ![...ledger.acked.keys()].some(mine);) await new Promise((r) => setTimeout(r, 20));
        await new Promise((r) => setTimeout(r, 300 + Math.random() * 400));
        s.proc.kill('SIGKILL');
        stop.now = true;
        await Promise.all(clients);
        if (s.proc.exitCode === null && s.proc.signalCode === null) await new Promise((r) => s!.proc.once('exit', r));
        s = await startServer(dir);
        const found = await allRows(s);
        expect(ledger.acked.size, 'some writes were acknowledged this round').toBeGreaterThan(0);
        for (const [id, n] of ledger.acked) {
          const alt = ledger.inFlight.get(id);
          expect([n, ...(alt === undefined ? [] : [alt])], `acknowledged id ${id}`).toContain(found.get(id));
        }
        for (const [id, n] of found) {
          expect([ledger.acked.get(id), ledger.inFlight.get(id)], `id ${id} was written`).toContain(n);
        }
        // what survived is the acknowledged state from now on
        ledger.acked = new Map(found);
        ledger.inFlight.clear();
      }
      expect(ledger.deleted, 'DELETEs acknowledged between the rounds of INSERTs').toBeGreaterThanOrEqual(ROUNDS - 1);
      expect(await s.stop()).toBe(0);
    } finally {
      s?.proc.kill('SIGKILL'); // a failed assertion must not leave a server behind
      rmSync(dir, { recursive: true, force: true });
    }
  }, 240_000);
});

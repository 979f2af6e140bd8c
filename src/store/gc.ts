/** Garbage collection: rows of dead generations, op ranges covered by checkpoints, stray directories. */
import { existsSync, readdirSync, renameSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import type { Database } from 'lmdb';
import { genRange } from './keys.js';
import { commitTxn, type StoreDbs } from './lmdb-env.js';
import { removePath } from './durable-fs.js';

/**
 * Deletes the keys of `range` from `db`, at most `chunk` per transaction so a large table never
 * makes one huge commit. Returns how many keys were removed.
 */
export async function deleteRange(
  dbs: StoreDbs, db: Database<Buffer, Buffer>, range: { start: Buffer; end: Buffer }, chunk: number,
): Promise<number> {
  let total = 0;
  for (;;) {
    const n = await commitTxn(dbs, () => {
      const keys = [...db.getKeys({ ...range, limit: chunk })];
      for (const k of keys) db.removeSync(k);
      return keys.length;
    });
    total += n;
    if (n < chunk) return total;
  }
}

/**
 * Removes every dead generation's docs, ops and segment directory, then its dead marker (last, so a
 * crash midway just repeats the work at the next open).
 */
export async function collectDead(dbs: StoreDbs, tablesDir: string, chunk: number): Promise<void> {
  for (const gen of [...dbs.dead.getKeys()]) {
    await deleteRange(dbs, dbs.docs, genRange(gen), chunk);
    await deleteRange(dbs, dbs.ops, genRange(gen), chunk);
    const dir = dbs.dead.get(gen)?.toString('utf8');
    if (dir) await removePath(join(tablesDir, dir));
    await commitTxn(dbs, () => dbs.dead.removeSync(gen));
  }
}

/**
 * At open, before the sweep: a live generation whose folder is missing but sits under another name
 * (a rename or ATTACH that crashed between its folder rename and its catalog commit) gets it back.
 * Generation numbers are never reused, so the `.GEN` suffix names the folder unambiguously.
 */
export function adoptGenDirs(tablesDir: string, live: Map<number, string>): void {
  const missing = new Map([...live].filter(([, dir]) => !existsSync(join(tablesDir, dir))));
  if (missing.size === 0) return;
  for (const name of readdirSync(tablesDir)) {
    const gen = Number(name.slice(name.lastIndexOf('.') + 1));
    const want = missing.get(gen);
    if (want === undefined || want === name) continue;
    renameSync(join(tablesDir, name), join(tablesDir, want));
    missing.delete(gen);
  }
}

/** Removes entries of `tablesDir` that are not live generation directories (run at open). */
export function sweepTablesDir(tablesDir: string, live: Set<string>): void {
  for (const name of readdirSync(tablesDir)) {
    if (!live.has(name)) rmSync(join(tablesDir, name), { recursive: true, force: true });
  }
}

/** Runs collectDead in the background, one collection after another; failures retry at the next open. */
export class GarbageCollector {
  #chain: Promise<void> = Promise.resolve();
  /** Set while a garbage collection (its chain of transactions) runs. */
  #running = false;

  /** `dbs` is called when a collection starts: releaseMappedPages replaces the databases. */
  constructor(private readonly dbs: () => StoreDbs, private readonly tablesDir: string, private readonly chunk: number) {}

  /** Starts (or queues) collection of dead generations. */
  start(): void {
    this.#running = true;
    const run = this.#chain
      .then(() => collectDead(this.dbs(), this.tablesDir, this.chunk))
      .catch(() => undefined)
      .then(() => { if (this.#chain === run) this.#running = false; });
    this.#chain = run;
  }

  running(): boolean {
    return this.#running;
  }

  /** Resolves when every collection started so far has ended. */
  idle(): Promise<void> {
    return this.#chain;
  }
}

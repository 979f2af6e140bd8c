/**
 * Meta values that ride in commits (Store.alongside): while a caller's async context runs inside
 * run(), every transaction made through commit() also stores that context's meta key and value, so
 * the value (a replicated op's stream sequence) is durable exactly when the write is. Per store, so
 * two stores in one process never carry each other's values.
 */
import { AsyncLocalStorage } from 'node:async_hooks';
import { commitTxn, type StoreDbs } from './lmdb-env.js';
import { encodeValue } from './values/value-codec.js';

interface Rider { key: string; bytes: Buffer; commits: number; onCommit?: (commits: number) => void }

export class CommitRiders {
  readonly #context = new AsyncLocalStorage<Rider>();

  /** Runs `fn` with `key` = `value` riding in its commits; fn's result and how many commits carried it. */
  async run<T>(key: string, value: unknown, fn: () => Promise<T>, onCommit?: (commits: number) => void): Promise<{ result: T; commits: number }> {
    const rider: Rider = { key, bytes: encodeValue(value), commits: 0, onCommit };
    const result = await this.#context.run(rider, fn);
    return { result, commits: rider.commits };
  }

  /** Whether the current async context is inside run(). */
  active(): boolean {
    return this.#context.getStore() !== undefined;
  }

  /** commitTxn with the current context's value written inside the transaction, counted once durable. */
  async commit<T>(dbs: StoreDbs, fn: () => T, docBytes?: number): Promise<T> {
    const rider = this.#context.getStore();
    const r = await commitTxn(dbs, () => {
      if (rider) dbs.meta.putSync(rider.key, rider.bytes);
      return fn();
    }, docBytes);
    if (rider) {
      rider.commits++;
      rider.onCommit?.(rider.commits);
    }
    return r;
  }
}

/** Server-wide values kept across restarts (settings, the auto-id high-water mark), by key. */
import { commitTxn, type StoreDbs } from './lmdb-env.js';
import { decodeValue, encodeValue } from './values/value-codec.js';

export function getMeta(dbs: StoreDbs, key: string): unknown {
  const raw = dbs.meta.get(key);
  return raw ? decodeValue(raw) : undefined;
}

/** Stores `value` durably; undefined removes the key. Encoded at call time. */
export async function setMeta(dbs: StoreDbs, key: string, value: unknown): Promise<void> {
  const bytes = value === undefined ? undefined : encodeValue(value);
  await commitTxn(dbs, () => {
    if (bytes) dbs.meta.putSync(key, bytes);
    else dbs.meta.removeSync(key);
  });
}

/** Atomic read-modify-write of one key inside a write transaction; returns the new value. */
export function updateMeta<T>(dbs: StoreDbs, key: string, fn: (old: unknown) => T): Promise<T> {
  return commitTxn(dbs, () => {
    const next = fn(getMeta(dbs, key));
    if (next === undefined) dbs.meta.removeSync(key);
    else dbs.meta.putSync(key, encodeValue(next));
    return next;
  });
}

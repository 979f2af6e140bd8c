/** The store's public vocabulary: documents, write operations, segments and checkpoints. */

/**
 * A document as the store of record keeps it: every full-text field's text (stored or not) and
 * every attribute, by column name. Values round-trip exactly (see value-codec.ts): bigint (64-bit
 * and wider), number (including -0, NaN, Infinity), string, boolean, null, bigint[], and nested
 * arrays/objects of those. Properties whose value is `undefined` are dropped.
 */
export type StoredDoc = Record<string, unknown>;

/**
 * One write. `put` inserts or replaces; `insert` is a put that fails the whole batch with
 * `duplicate id '<id>'` when the document already exists (or repeats inside the batch), checked
 * inside the write transaction so concurrent INSERTs of one id cannot both succeed; it is logged
 * as a `put`. `update` merges `values` into an existing document (a missing one is left absent;
 * the op is still logged so replay stays in step). `delete` removes (missing: a logged no-op).
 */
export type WriteOp =
  | { op: 'put'; docId: bigint; doc: StoredDoc }
  | { op: 'insert'; docId: bigint; doc: StoredDoc }
  | { op: 'delete'; docId: bigint }
  | { op: 'update'; docId: bigint; values: Record<string, unknown> };

/** A write as the op log returns it: `insert` comes back as `put`. */
export type LoggedOp = { seq: bigint } & Exclude<WriteOp, { op: 'insert' }>;

/** A segment blob with its file name (letters, digits, `.`, `_`, `-`; not `manifest*`). */
export interface SegmentBlob {
  name: string;
  bytes: Uint8Array;
}

/**
 * One entry of a checkpoint to save: a new segment (`bytes` given: written to its own file, which
 * must not be listed in the current manifest: segment files are immutable), or an existing one kept
 * (`bytes` absent: must be listed in the current manifest).
 */
export interface SegmentEntry {
  name: string;
  /**
   * The new file's bytes, as one array or as its pieces in order (views of the core's shared memory, written
   * as they are: no copy of a big segment into a buffer of its own on the protocol thread).
   */
  bytes?: Uint8Array | readonly Uint8Array[];
}

/** What loadCheckpoint returns: the segments in manifest order and the last sequence they cover. */
export interface Checkpoint {
  segments: SegmentBlob[];
  lastSeq: bigint;
}

/** Options of Store.open; defaults are the named constants in store.ts. */
export interface StoreOptions {
  /** Max keys removed per lmdb transaction by pruneOps and garbage collection (DEFAULT_DELETE_CHUNK). */
  deleteChunk?: number;
  /**
   * Test hook for the crash-safety proof: milliseconds to sleep between writing and fsyncing the
   * temporary manifest and renaming it into place. Never set in production.
   */
  manifestSwapDelayMs?: number;
  /** Write-log bytes at which new group-commit rounds wait for the log to start over (logged-rounds.ts LOG_RESET_BYTES). */
  logResetBytes?: number;
  /**
   * Read-only, beside a server that may be running on the directory (`quarry export`): no lock, no
   * format stamp written, no clean-up or garbage collection, lmdb opened read-only, and a damaged
   * checkpoint is only skipped, never discarded. Writes are refused by lmdb.
   */
  readOnly?: boolean;
}

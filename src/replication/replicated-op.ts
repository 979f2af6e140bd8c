/**
 * What a cluster's stream holds, one message per op, as JSON. Writes travel as their statement (SQL
 * text, or a JSON request body with 64-bit numbers exact) plus the ids the writer generated, so every
 * node applying them in stream order reaches the same table. Each op is idempotent when applied again
 * over its own result (INSERT of a present id fails alike everywhere, REPLACE/UPDATE/DELETE repeat).
 */
import type { JsonWriteKind } from '../engine/replication-hook.js';
import type { BulkOpLine } from './bulk-op.js';
import type { EsBulkOpDoc } from './es-bulk-op.js';

interface OpBase {
  /** Unique per op: JetStream's dedup id and the writer's key for waiting on its own apply. */
  id: string;
  /** The node that published it. */
  origin: string;
}

export type ReplicatedOp = OpBase & (
  /** INSERT/REPLACE/UPDATE/DELETE/TRUNCATE as typed, `table` the bare name; `ids` the writer's generated ids. */
  | { op: 'sql'; table: string; sql: string; ids: string[] }
  /** /insert, /replace, /update, /delete: the body as lossless JSON text, `"cluster"` removed. */
  | { op: 'json'; table: string; kind: JsonWriteKind; body: string }
  /** A /bulk request whose lines all write tables of this cluster (bulk-op.ts). */
  | { op: 'bulk'; lines: BulkOpLine[] }
  /** A /_bulk request whose documents all name `c:t` of this cluster (es-bulk-op.ts). */
  | { op: 'esbulk'; docs: EsBulkOpDoc[] }
  /** A COMMITted transaction on one cluster table: its statements in order, applied as one transaction. */
  | { op: 'tx'; table: string; statements: { sql: string; ids: string[] }[] }
  /** ALTER CLUSTER ADD: the table's snapshot object (schema and documents) at this point of the stream. */
  | { op: 'add'; table: string; snapshot: string }
  /** ALTER CLUSTER DROP: the table stays on every node as a local table. */
  | { op: 'drop'; table: string }
  /** DELETE CLUSTER: every node forgets the cluster; its tables stay local. */
  | { op: 'delete' }
);

const encoder = new TextEncoder();
const decoder = new TextDecoder();

export function encodeOp(op: ReplicatedOp): Uint8Array {
  return encoder.encode(JSON.stringify(op));
}

export function decodeOp(data: Uint8Array): ReplicatedOp {
  return JSON.parse(decoder.decode(data)) as ReplicatedOp;
}

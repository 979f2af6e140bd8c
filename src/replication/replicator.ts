/**
 * The replication hook (engine/replication-hook.ts) over JetStream: runs the cluster statements,
 * sends every write to a replicated table through the cluster's stream and answers the client once
 * JetStream acknowledged it and this node applied it, and rejects writes that bypass the cluster,
 * with Manticore's messages.
 */
import { randomUUID } from 'node:crypto';
import { LosslessNumber, stringify as losslessStringify } from 'lossless-json';
import type { ExecContext } from '../engine/exec/executor.js';
import { isJsonObject, type JsonValue } from '../engine/json/json-value.js';
import { jsonCluster, writeTable, type EsBulkReply, type JsonWriteKind, type LocalRun, type ReplicationHook } from '../engine/replication-hook.js';
import { likeMatcher } from '../engine/like.js';
import { ok, rows, type Result } from '../engine/result.js';
import type { Session } from '../engine/session.js';
import { buffersWrites } from '../engine/transaction/transaction.js';
import type { ClusterStatement, Statement } from '../sql/ast.js';
import { SearchError } from '../util/errors.js';
import type { ApplyOutcome } from './apply-op.js';
import { ClusterAdmin } from './cluster-admin.js';
import { clusterStatusRows } from './cluster-status.js';
import { encodeOp, type ReplicatedOp } from './replicated-op.js';
import { ClusterTransactions } from './cluster-transaction.js';
import { bulkCluster, bulkOpLines } from './bulk-op.js';
import type { BulkLine, BulkReply } from '../engine/json/json-bulk.js';
import type { EsBulkDoc } from '../engine/json/json-es-bulk.js';
import { esBulkCluster, esBulkItemsAs, esBulkOpDocs } from './es-bulk-op.js';

/** How long a writer waits for its own node to apply an op JetStream already acknowledged. */
export const LOCAL_APPLY_TIMEOUT_MS = 60_000;

type WriteOp = Extract<ReplicatedOp, { op: 'sql' } | { op: 'json' } | { op: 'tx' } | { op: 'bulk' } | { op: 'esbulk' }>;
type OpBody = WriteOp extends infer O ? O extends WriteOp ? Omit<O, 'id' | 'origin'> : never : never;

const notInCluster = (t: string) => new SearchError('BAD_VALUE', `table '${t}' is not in any cluster, use just '${t}'`);
/** A JSON write naming a replicated table without its cluster (Manticore's HTTP text). */
const jsonPartOf = (t: string, c: string) => new SearchError('BAD_VALUE', `table '${t}' is a part of cluster '${c}', use "cluster":"${c}" and "table":"${t}" properties`);

export class Replicator implements ReplicationHook {
  readonly #txs = new ClusterTransactions();

  constructor(private readonly admin: ClusterAdmin, private readonly ctx: ExecContext) {}

  route(st: Statement, session: Session, local: LocalRun): Promise<Result | Result[]> | undefined {
    switch (st.kind) {
      case 'create_cluster': case 'join_cluster': case 'alter_cluster': case 'delete_cluster':
        return this.#cluster(st);
      case 'show':
        return st.what === 'status' ? this.#status(st.like, local) : undefined;
      case 'commit': case 'begin':
        // COMMIT sends the session's cluster transaction; BEGIN inside one commits it first, as in MySQL
        return this.#txs.has(session) ? this.#commit(session).then(() => local()) : undefined;
      case 'rollback':
        this.#txs.take(session);
        return undefined;
      case 'set':
        // SET autocommit=1 commits an open transaction
        if (!this.#txs.has(session) || !st.assignments.some((a) => a.name === 'autocommit')) return undefined;
        return local().then(async (r) => { if (session.autocommit) await this.#commit(session); return r; });
      case 'attach': {
        for (const t of [st.source, st.target]) {
          const cluster = this.admin.state.clusterOf(t);
          if (cluster) throw new SearchError('BAD_VALUE', `table ${t.toLowerCase()} is part of cluster ${cluster}, can not issue ATTACH`);
        }
        return undefined;
      }
      case 'alter_table': case 'drop_table': {
        const cluster = this.admin.state.clusterOf(st.table);
        if (!cluster) return undefined;
        throw new SearchError('BAD_VALUE', `table '${st.table.toLowerCase()}' is part of cluster ${cluster}, ${st.kind === 'alter_table' ? 'ALTER' : 'DROP'} is not supported for tables in cluster`);
      }
      default: {
        const name = writeTable(st);
        if (name === undefined) return undefined;
        const [cluster, table] = this.#split(name);
        if (!cluster) {
          const open = this.#txs.has(session) && buffersWrites(session) && (st.kind === 'insert' || st.kind === 'delete');
          if (open) throw new SearchError('QUERY_ERROR', `current txn is working with another table ('${this.#txs.tableOf(session)}')`);
          return undefined;
        }
        if (st.kind === 'truncate' && st.reconfigure) throw new SearchError('BAD_VALUE', 'RECONFIGURE is not supported for a cluster table');
        if (buffersWrites(session) && (st.kind === 'insert' || st.kind === 'delete')) return this.#buffer(session, cluster, table, st);
        return this.#sqlWrite(cluster, table, st);
      }
    }
  }

  /** An INSERT/REPLACE/DELETE of an open transaction: kept until COMMIT (ids generated now). */
  async #buffer(session: Session, cluster: string, table: string, st: Statement): Promise<Result> {
    const ids = st.kind === 'insert' ? (await this.ctx.ids.take(st.rows.length)).map(String) : [];
    this.#txs.add(session, cluster, table, st.text, ids);
    return ok(st.kind === 'insert' ? st.rows.length : 0);
  }

  async #commit(session: Session): Promise<void> {
    const tx = this.#txs.take(session);
    if (tx) await this.#replicate(tx.cluster, { op: 'tx', table: tx.table, statements: tx.statements });
  }

  routeJson<T>(kind: JsonWriteKind, body: JsonValue, _local: () => Promise<T>): Promise<T> | undefined {
    if (!isJsonObject(body)) return undefined;
    const named = typeof body.table === 'string' ? body.table : typeof body.index === 'string' ? body.index : undefined;
    if (named === undefined) return undefined;
    const given = jsonCluster(body);
    const table = named.toLowerCase();
    const owner = this.admin.state.clusterOf(table);
    if (given === undefined) {
      if (!owner) return undefined;
      throw jsonPartOf(table, owner);
    }
    this.admin.member(given);
    if (owner !== given) {
      if (!owner) throw notInCluster(table);
      throw new SearchError('BAD_VALUE', `table '${table}' doesn't belong to cluster '${given}'`);
    }
    return this.#jsonWrite<T>(given, table, kind, body);
  }

  /** A /bulk request whose lines all write one cluster's tables: one op, run by every node as /bulk. */
  routeBulk(lines: BulkLine[]): Promise<BulkReply> | undefined {
    const cluster = bulkCluster(lines, (t) => this.admin.state.clusterOf(t));
    if (cluster === undefined) return undefined;
    return (async () => {
      const opLines = await bulkOpLines(lines, async () => (await this.ctx.ids.take(1))[0]!);
      return (await this.#replicate(cluster, { op: 'bulk', lines: opLines })) as BulkReply;
    })();
  }

  /** A /_bulk request whose documents all name `c:t` of one cluster: one op, run by every node as /_bulk. */
  routeEsBulk(docs: EsBulkDoc[]): Promise<EsBulkReply> | undefined {
    const cluster = esBulkCluster(docs, (t) => this.admin.state.clusterOf(t));
    if (cluster === undefined) return undefined;
    return (async () => {
      const opDocs = await esBulkOpDocs(docs, async () => (await this.ctx.ids.take(1))[0]!);
      const reply = (await this.#replicate(cluster, { op: 'esbulk', docs: opDocs })) as EsBulkReply;
      return { ...reply, items: esBulkItemsAs(reply.items, cluster) };
    })();
  }

  /** A line of a request run on this node only (a /bulk or /_bulk request the route methods declined). */
  guardLocal(table: string, cluster: string | undefined, endpoint: '/bulk' | '/_bulk' = '/bulk'): void {
    const owner = this.admin.state.clusterOf(table);
    if (cluster !== undefined) {
      this.admin.member(cluster);
      if (owner !== cluster) throw owner ? new SearchError('BAD_VALUE', `table '${table}' doesn't belong to cluster '${cluster}'`) : notInCluster(table);
      // a line of the cluster in a request that also writes elsewhere: one op cannot carry both
      const how = endpoint === '/bulk' ? `with "cluster":"${cluster}" on every line` : `with "_index":"${cluster}:<table>" on every document`;
      throw new SearchError('BAD_VALUE', `a ${endpoint} request writing cluster '${cluster}' can only write tables of that cluster (${how})`);
    }
    if (owner) throw jsonPartOf(table, owner);
  }

  /** `c:t` -> [c, t] checked against this node's clusters; a bare name of a replicated table fails. */
  #split(name: string): [string | undefined, string] {
    const colon = name.indexOf(':');
    if (colon < 0) {
      const owner = this.admin.state.clusterOf(name);
      if (owner) throw new SearchError('BAD_VALUE', `table '${name.toLowerCase()}' is a part of cluster '${owner}', use '${owner}:${name.toLowerCase()}'`);
      return [undefined, name];
    }
    const cluster = name.slice(0, colon);
    const table = name.slice(colon + 1).toLowerCase();
    this.admin.member(cluster);
    const owner = this.admin.state.clusterOf(table);
    if (owner !== cluster) {
      if (!owner) throw notInCluster(table);
      throw new SearchError('BAD_VALUE', `table '${table}' doesn't belong to cluster '${cluster}'`);
    }
    return [cluster, table];
  }

  async #sqlWrite(cluster: string, table: string, st: Statement): Promise<Result | Result[]> {
    // generated ids are the writer's, so every node stores the same ones
    const ids = st.kind === 'insert' ? (await this.ctx.ids.take(st.rows.length)).map(String) : [];
    const outcome = await this.#replicate(cluster, { op: 'sql', table, sql: st.text, ids });
    return outcome as Result | Result[];
  }

  async #jsonWrite<T>(cluster: string, table: string, kind: JsonWriteKind, body: Record<string, JsonValue>): Promise<T> {
    const { cluster: _c, ...rest } = body;
    if (kind === 'insert' || kind === 'replace') {
      const id = rest.id;
      const absent = id === undefined || id === null || (id instanceof LosslessNumber && id.value === '0');
      if (absent) rest.id = new LosslessNumber(String((await this.ctx.ids.take(1))[0]));
    }
    return (await this.#replicate(cluster, { op: 'json', table, kind, body: losslessStringify(rest) ?? '{}' })) as T;
  }

  /** Publishes the op, waits for JetStream's quorum ack and this node's apply; the apply's outcome. */
  async #replicate(cluster: string, body: OpBody): Promise<unknown> {
    const f = this.admin.follower(cluster);
    const op = { ...body, id: randomUUID(), origin: this.admin.self } as ReplicatedOp;
    const applied = f.expect(op.id);
    try {
      await this.admin.log.publish(cluster, encodeOp(op), op.id);
    } catch (e) {
      f.forget(op.id);
      throw new SearchError('QUERY_ERROR', `cluster '${cluster}': write not replicated: ${(e as Error).message}`);
    }
    let timer: NodeJS.Timeout | undefined;
    const late = new Promise<ApplyOutcome>((resolve) => {
      timer = setTimeout(() => resolve({ ok: false, error: new SearchError('QUERY_ERROR', `cluster '${cluster}': write committed but not applied on this node within ${LOCAL_APPLY_TIMEOUT_MS / 1000}s`) }), LOCAL_APPLY_TIMEOUT_MS);
    });
    const outcome = await Promise.race([applied, late]).finally(() => clearTimeout(timer));
    f.forget(op.id);
    if (!outcome.ok) throw outcome.error;
    return outcome.value;
  }

  async #cluster(st: ClusterStatement): Promise<Result> {
    switch (st.kind) {
      case 'create_cluster': await this.admin.create(st.cluster); break;
      case 'join_cluster': await this.admin.join(st.cluster, st.at ?? st.options.find((o) => o.name === 'nodes')?.value); break;
      case 'alter_cluster':
        if (st.op === 'update') { this.admin.member(st.cluster); break; } // nodes are NATS's: nothing to update
        for (const t of st.tables) await (st.op === 'add' ? this.admin.add(st.cluster, t) : this.admin.drop(st.cluster, t));
        break;
      case 'delete_cluster': await this.admin.remove(st.cluster); break;
    }
    return ok(0);
  }

  async #status(like: string | undefined, local: LocalRun): Promise<Result | Result[]> {
    const base = await local();
    if (Array.isArray(base) || base.kind !== 'rows') return base;
    const match = likeMatcher(like);
    const extra: string[][] = [];
    for (const f of this.admin.followers()) extra.push(...(await clusterStatusRows(this.admin.log, f, this.admin.self)));
    return rows(base.columns, [...base.rows, ...extra.filter((r) => match(r[0]!))], { meta: base.meta });
  }
}

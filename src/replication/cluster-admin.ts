/**
 * This node's clusters: CREATE / JOIN / ALTER ADD|DROP / DELETE CLUSTER on top of the cluster log,
 * and one Follower per cluster applying its stream. Errors use Manticore's texts.
 */
import { randomUUID } from 'node:crypto';
import type { Catalog } from '../engine/catalog.js';
import { SearchError } from '../util/errors.js';
import type { ApplyTarget } from './apply-op.js';
import type { ClusterLog } from './cluster-log.js';
import { Follower } from './follower.js';
import type { LocalState } from './local-state.js';
import { encodeOp, type ReplicatedOp } from './replicated-op.js';
import { takeSnapshot } from './table-snapshot.js';
import { askDonor } from './donor.js';
import type { SnapshotTriggers } from './snapshot-triggers.js';

/** How long DELETE CLUSTER waits for the other nodes to apply it before the stream is removed. */
const DELETE_GRACE_MS = 5_000;

export class ClusterAdmin {
  readonly #followers = new Map<string, Follower>();

  constructor(
    readonly log: ClusterLog,
    readonly state: LocalState,
    /** This node's address (its binary-API or MySQL listener): its name in the cluster. */
    readonly self: string,
    private readonly catalog: Catalog,
    private readonly target: ApplyTarget,
    /** When cluster snapshots are due (searchd replication_snapshot_ops, _bytes, _interval). */
    private readonly snapshotTriggers: SnapshotTriggers,
  ) {}

  /** Resumes following every cluster this node belonged to when it stopped. */
  async resume(): Promise<void> {
    for (const c of this.state.names()) {
      if (!(await this.log.exists(c))) { await this.state.remove(c); continue; } // deleted while we were down
      this.#follow(c);
    }
  }

  followers(): Follower[] { return [...this.#followers.values()]; }

  /** The cluster's follower; "unknown cluster" when this node is not in it. */
  follower(cluster: string): Follower {
    const f = this.#followers.get(cluster);
    if (!f || !this.state.get(cluster)) throw new SearchError('UNKNOWN_TABLE', `unknown cluster '${cluster}'`);
    return f;
  }

  member(cluster: string): void { this.follower(cluster); }

  #follow(cluster: string): Follower {
    const f = new Follower(cluster, this.self, this.log, this.catalog, this.target, this.state, () => this.#followers.delete(cluster), this.snapshotTriggers);
    this.#followers.set(cluster, f);
    f.start();
    return f;
  }

  async create(cluster: string): Promise<void> {
    if (this.state.get(cluster) || !(await this.log.create(cluster))) throw new SearchError('BAD_VALUE', `cluster '${cluster}' already exists`);
    await this.state.put(cluster, { seq: 0, tables: [], nodesSet: this.self });
    this.#follow(cluster);
  }

  /**
   * Asks the node at `at` for the cluster (donor.ts), then follows the cluster's stream (after its
   * latest snapshot, or from its start) until past what that node had committed.
   */
  async join(cluster: string, at: string | undefined): Promise<void> {
    if (!at) throw new SearchError('BAD_VALUE', 'cannot join without either nodes list or AT node');
    if (this.state.get(cluster)) throw new SearchError('BAD_VALUE', `cluster '${cluster}' already exists`);
    const donor = await askDonor(at, cluster);
    if (!(await this.log.exists(cluster))) throw new SearchError('BAD_VALUE', `cluster '${cluster}', no nodes available(${at}), error: cluster '${cluster}' has no stream in NATS (the node at ${donor.node} uses other NATS servers?)`);
    // a node's name is its durable consumer: two nodes of one name would share (and steal) one
    if ((await this.log.nodes(cluster)).some((n) => n.node === this.self)) {
      throw new SearchError('BAD_VALUE', `node name conflict, '${this.self}' is already a node of cluster '${cluster}'; set a unique node_address (or listen address)`);
    }
    await this.state.put(cluster, { seq: 0, tables: [], nodesSet: at });
    const f = this.#follow(cluster);
    await f.reached(Math.max(donor.lastCommitted, await this.log.lastSeq(cluster)));
  }

  async add(cluster: string, table: string): Promise<void> {
    this.member(cluster);
    if (!this.catalog.has(table)) throw new SearchError('UNKNOWN_TABLE', `unknown or wrong type of table '${table}'`);
    const owner = this.state.clusterOf(table);
    if (owner) throw new SearchError('BAD_VALUE', `table '${table}' is already part of cluster '${owner}'`);
    const snapshot = `${table}-${randomUUID()}`;
    await this.log.putSnapshot(cluster, snapshot, await takeSnapshot(this.catalog, table));
    await this.#publish(cluster, { op: 'add', table, snapshot });
  }

  async drop(cluster: string, table: string): Promise<void> {
    this.member(cluster);
    if (this.state.clusterOf(table) !== cluster) throw new SearchError('BAD_VALUE', `table '${table}' is not in cluster '${cluster}'`);
    await this.#publish(cluster, { op: 'drop', table });
  }

  /** DELETE CLUSTER: every node forgets it (tables stay local), then the stream and snapshots go. */
  async remove(cluster: string): Promise<void> {
    this.member(cluster);
    const seq = await this.#publish(cluster, { op: 'delete' });
    const until = Date.now() + DELETE_GRACE_MS;
    while (Date.now() < until) {
      const nodes = await this.log.nodes(cluster).catch(() => []);
      if (nodes.every((n) => n.node === this.self || n.acked >= seq)) break;
      await new Promise((r) => setTimeout(r, 100));
    }
    await this.log.destroy(cluster);
  }

  /** Publishes a cluster op and waits until this node applied it; its stream sequence. */
  async #publish(cluster: string, body: { op: 'add'; table: string; snapshot: string } | { op: 'drop'; table: string } | { op: 'delete' }): Promise<number> {
    const f = this.follower(cluster);
    const op = { ...body, id: randomUUID(), origin: this.self } as ReplicatedOp;
    const applied = f.expect(op.id);
    const seq = await this.log.publish(cluster, encodeOp(op), op.id).catch((e) => { f.forget(op.id); throw e; });
    const outcome = await applied;
    if (!outcome.ok) throw outcome.error;
    return seq;
  }

  async close(): Promise<void> {
    for (const f of this.#followers.values()) f.stop();
    await this.log.close();
  }
}

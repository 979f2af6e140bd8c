/**
 * One node following one cluster: reads the cluster's stream in order through this node's durable
 * consumer and applies each op (writes, table adds and drops, the cluster's deletion). The sequence
 * applied is stored with the node's tables (the store's meta, written after each op), so a restart
 * resumes right after it; an op applied again after a crash between its write and that record lands
 * on its own result, which every op tolerates (replicated-op.ts). A gap in delivery (a message lost
 * while a NATS server died) restarts the consumer at the first missing sequence. When the stream was
 * trimmed past that sequence, the cluster's latest snapshot is loaded first (cluster-snapshots.ts).
 */
import type { Catalog } from '../engine/catalog.js';
import { applyWrite, type ApplyOutcome, type ApplyTarget } from './apply-op.js';
import type { ClusterLog } from './cluster-log.js';
import { decodeOp, type ReplicatedOp } from './replicated-op.js';
import { bulkLinesFor } from './bulk-op.js';
import type { ClusterState, LocalState } from './local-state.js';
import { loadSnapshot } from './table-snapshot.js';
import { ClusterSnapshots } from './cluster-snapshots.js';
import type { SnapshotTriggers } from './snapshot-triggers.js';
import { crashPoint } from './crash-point.js';

const RESTART_PAUSE_MS = 500;

export class Follower {
  #stopped = false;
  #current?: { stop(): void | Promise<void> };
  readonly #waiters = new Map<string, (o: ApplyOutcome) => void>();
  readonly #seqWaiters: { seq: number; done: () => void }[] = [];
  /** Last error met while following (SHOW STATUS cluster_<c>_last_error). */
  lastError = '';
  readonly snapshots: ClusterSnapshots;

  constructor(
    readonly cluster: string,
    readonly node: string,
    private readonly log: ClusterLog,
    private readonly catalog: Catalog,
    private readonly target: ApplyTarget,
    private readonly state: LocalState,
    /** Called once the cluster's deletion was applied. */
    private readonly onDeleted: () => void,
    /** When cluster snapshots are due (searchd replication_snapshot_ops, _bytes, _interval). */
    triggers: SnapshotTriggers,
  ) {
    this.snapshots = new ClusterSnapshots(cluster, node, log, catalog, triggers, (upto) => this.#takeAdds(upto));
  }

  get cs(): ClusterState | undefined { return this.state.get(this.cluster); }

  /** Starts the apply loop in the background (it retries until stop()). */
  start(): void {
    void this.#loop();
  }

  stop(): void {
    this.#stopped = true;
    void this.#current?.stop();
  }

  /** Resolves with op `id`'s outcome on this node, once applied (register before publishing). */
  expect(id: string): Promise<ApplyOutcome> {
    return new Promise((resolve) => this.#waiters.set(id, resolve));
  }

  forget(id: string): void { this.#waiters.delete(id); }

  /** Resolves once this node applied sequence `seq`. */
  reached(seq: number): Promise<void> {
    if ((this.cs?.seq ?? 0) >= seq) return Promise.resolve();
    return new Promise((done) => this.#seqWaiters.push({ seq, done }));
  }

  async #loop(): Promise<void> {
    while (!this.#stopped && this.cs) {
      try {
        await this.#follow();
      } catch (e) {
        if (this.#stopped) return;
        this.lastError = String((e as Error)?.message ?? e);
        // DELETE CLUSTER ran and removed the stream before this node applied it
        if (!(await this.log.exists(this.cluster).catch(() => true))) {
          await this.state.remove(this.cluster);
          this.onDeleted();
          return;
        }
      }
      if (!this.#stopped) await new Promise((r) => setTimeout(r, RESTART_PAUSE_MS));
    }
  }

  async #follow(): Promise<void> {
    // tables part-way through an op (a crash inside a /bulk) are restored, as are those the trim passed
    await this.#restore();
    const msgs = await this.log.follow(this.cluster, this.node, (this.cs?.seq ?? 0) + 1);
    this.#current = msgs;
    if (this.#stopped) { void msgs.stop(); return; }
    for await (const m of msgs) {
      const applied = this.cs?.seq ?? 0;
      if (m.seq <= applied) { m.ack(); continue; }
      if (m.seq > applied + 1) { void msgs.stop(); return; } // a gap: follow again from applied + 1
      const op = decodeOp(m.data);
      const outcome = await this.#apply(op, m.seq);
      m.ack();
      this.#waiters.get(op.id)?.(outcome);
      this.#waiters.delete(op.id);
      this.#wake(m.seq);
      if (op.op === 'delete') { this.#stopped = true; this.onDeleted(); void msgs.stop(); return; }
      const cs = this.cs;
      if (cs?.replay && m.seq >= cs.replay.upto) await this.state.put(this.cluster, { ...cs, replay: undefined });
      // a snapshot that could not be taken waits for the next turn; following goes on
      await this.snapshots.afterApply(m.seq, this.cs?.tables ?? [], m.data.length).catch((e) => { this.lastError = `snapshot: ${(e as Error).message}`; });
    }
  }

  /**
   * Restores the tables when following alone cannot reach them: after a crash inside a /bulk op
   * (`partial`), from the latest snapshot or, before any, from the stream's start. Ops this node had
   * applied are then applied again under the membership it had reached (`replay`): a table dropped
   * from the cluster before the crash is neither reloaded by its ADD nor written by the ops before
   * its DROP, so its local writes since stay.
   */
  async #restore(): Promise<void> {
    const cs = this.cs;
    if (!cs) return;
    const force = cs.partial !== undefined;
    const members = cs.replay ?? { upto: cs.seq, tables: cs.tables };
    const restored = await this.snapshots.restoreIfNeeded(cs.seq, force, force ? new Set(members.tables) : undefined);
    if (!restored) return;
    const replay = force && restored.seq < members.upto ? members : undefined;
    const tables = replay ? [...new Set([...restored.tables, ...replay.tables])] : restored.tables;
    await this.state.put(this.cluster, { ...cs, seq: restored.seq, tables, replay });
  }

  /** Forgets the ADD snapshots of ops at or below `upto` (trimmed from the stream): their names. */
  async #takeAdds(upto: number): Promise<string[]> {
    const adds = this.cs?.adds ?? [];
    const gone = adds.filter((a) => a.seq <= upto);
    if (gone.length) await this.state.setAdds(this.cluster, adds.filter((a) => a.seq > upto));
    return gone.map((a) => a.name);
  }

  #wake(seq: number): void {
    for (let i = this.#seqWaiters.length - 1; i >= 0; i--) {
      if (this.#seqWaiters[i]!.seq <= seq) { this.#seqWaiters[i]!.done(); this.#seqWaiters.splice(i, 1); }
    }
  }

  /**
   * Applies `op` (stream sequence `seq`) and records the sequence durably: a write of one commit
   * stores it in that commit (a crash leaves both or neither); a /bulk op (several commits) marks
   * itself part-way in each, so a crash in between is seen at restart (the tables are then restored
   * from a snapshot); cluster changes are recorded after they apply, as applying them again is harmless.
   */
  async #apply(op: ReplicatedOp, seq: number): Promise<ApplyOutcome> {
    const cs = this.cs!;
    const tables = new Set(cs.tables);
    let adds = cs.adds;
    // replaying ops applied before a crash: the tables dropped from the cluster since are left alone
    const member = cs.replay && seq <= cs.replay.upto ? new Set(cs.replay.tables) : undefined;
    if (member && op.op !== 'bulk' && op.op !== 'esbulk' && op.op !== 'drop' && op.op !== 'delete' && !member.has(op.table.toLowerCase())) {
      if (op.op === 'add') adds = [...(adds ?? []), { name: op.snapshot, seq }];
      await this.state.put(this.cluster, { ...cs, seq, adds });
      return { ok: true, value: undefined };
    }
    if (member && op.op === 'bulk') op = { ...op, lines: bulkLinesFor(op.lines, (t) => member.has(t)) };
    if (member && op.op === 'esbulk') op = { ...op, docs: op.docs.filter((d) => member.has(d.table.toLowerCase())) };
    switch (op.op) {
      case 'sql': case 'json': case 'tx': case 'bulk': case 'esbulk': {
        const single = op.op !== 'bulk' && op.op !== 'esbulk';
        const record = single ? { seq } : { seq: seq - 1, partial: seq };
        const { result, commits } = await this.state.alongside(this.cluster, record, () => applyWrite(this.target, op),
          (n) => crashPoint('apply-commit', seq, n));
        if (single && commits > 1) console.error(`quarry: cluster '${this.cluster}': op ${seq} made ${commits} commits`);
        crashPoint('applied', seq);
        await this.state.applied(this.cluster, seq, !(single && commits === 1));
        return result;
      }
      case 'add':
        // every node loads it, the adding one too: a local write may have followed the snapshot there
        await loadSnapshot(this.catalog, op.table, await this.log.getSnapshot(this.cluster, op.snapshot));
        tables.add(op.table);
        adds = [...(adds ?? []), { name: op.snapshot, seq }];
        break;
      case 'drop': tables.delete(op.table); break;
      case 'delete':
        await this.state.remove(this.cluster);
        return { ok: true, value: undefined };
    }
    await this.state.put(this.cluster, { ...cs, seq, tables: [...tables], adds });
    return { ok: true, value: undefined };
  }
}

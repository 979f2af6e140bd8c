/**
 * A cluster's replicated write log on NATS JetStream: one stream per cluster (replicas = number of
 * NATS servers, up to 3), publish acknowledged once the stream's Raft group has the message on a
 * quorum, a durable consumer per node, and an object store for table snapshots. No consensus here:
 * ordering and quorum are JetStream's.
 */
import { connect } from '@nats-io/transport-node';
import type { NatsConnection } from '@nats-io/nats-core';
import {
  AckPolicy, DeliverPolicy, jetstream, jetstreamManager, type JetStreamClient, type JetStreamManager, type JsMsg,
} from '@nats-io/jetstream';
import { Objm } from '@nats-io/obj';
import { SearchError } from '../util/errors.js';

/** How long a write keeps retrying its publish (a NATS server down, a stream leader being elected). */
export const PUBLISH_RETRY_MS = 20_000;
/** Pause between attempts of a JetStream call that failed for want of a leader. */
const RETRY_PAUSE_MS = 250;

export const streamName = (cluster: string) => `QUARRY_CLUSTER_${cluster}`;
export const subjectOf = (cluster: string) => `quarry.cluster.${cluster}`;
export const snapshotBucket = (cluster: string) => `QUARRY_SNAP_${cluster}`;
/** A node's durable consumer name: its address with what NATS names forbid replaced. */
export const consumerName = (node: string) => `node_${node.replace(/[^A-Za-z0-9_-]/g, '_')}`;

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** Retries `fn` until it succeeds or `ms` pass (JetStream answers "no leader" or times out meanwhile). */
export async function retrying<T>(ms: number, fn: () => Promise<T>, fatal: (e: unknown) => boolean = () => false): Promise<T> {
  const until = Date.now() + ms;
  for (;;) {
    try {
      return await fn();
    } catch (e) {
      if (fatal(e) || Date.now() > until) throw e;
      await sleep(RETRY_PAUSE_MS);
    }
  }
}

const isNotFound = (e: unknown) => /not found/i.test(String((e as Error)?.message ?? e));

export interface LogMessage { seq: number; data: Uint8Array; ack(): void }

export class ClusterLog {
  private constructor(
    readonly nc: NatsConnection,
    readonly jsm: JetStreamManager,
    readonly js: JetStreamClient,
    /** Stream replicas: the number of NATS servers named, at most 3. */
    readonly replicas: number,
  ) {}

  /** Connects to the NATS servers (reconnecting forever) and waits until JetStream answers. */
  static async open(servers: string[], waitMs = 60_000): Promise<ClusterLog> {
    const started = Date.now();
    let warned = false;
    const attempt = <T>(fn: () => Promise<T>) => retrying(waitMs, () => fn().catch((e) => {
      if (!warned && Date.now() - started > 2000) {
        warned = true;
        console.warn(`quarry: waiting for NATS JetStream at ${servers.join(',')} (${(e as Error).message})`);
      }
      throw e;
    }));
    try {
      const nc = await attempt(() => connect({ servers, maxReconnectAttempts: -1, reconnectTimeWait: 250, name: 'quarry' }));
      const jsm = await attempt(() => jetstreamManager(nc, { timeout: 2000 }));
      return new ClusterLog(nc, jsm, jetstream(nc, { timeout: 5000 }), Math.min(3, Math.max(1, servers.length)));
    } catch (e) {
      throw new SearchError('BAD_SETTING', `replication_nats: no JetStream answered at ${servers.join(',')} within ${waitMs / 1000}s: ${(e as Error).message}`);
    }
  }

  async exists(cluster: string): Promise<boolean> {
    return retrying(PUBLISH_RETRY_MS, async () => {
      try {
        await this.jsm.streams.info(streamName(cluster));
        return true;
      } catch (e) {
        if (isNotFound(e)) return false;
        throw e;
      }
    });
  }

  /** Creates the cluster's stream and snapshot bucket; false when the stream already existed. */
  async create(cluster: string): Promise<boolean> {
    if (await this.exists(cluster)) return false;
    await retrying(PUBLISH_RETRY_MS, () => this.jsm.streams.add({ name: streamName(cluster), subjects: [subjectOf(cluster)], num_replicas: this.replicas }));
    await retrying(PUBLISH_RETRY_MS, () => new Objm(this.nc).create(snapshotBucket(cluster), { replicas: this.replicas }));
    return true;
  }

  /** Removes the stream and the snapshots (DELETE CLUSTER, after every node was told). */
  async destroy(cluster: string): Promise<void> {
    await retrying(PUBLISH_RETRY_MS, async () => { try { await this.jsm.streams.delete(streamName(cluster)); } catch (e) { if (!isNotFound(e)) throw e; } });
    await retrying(PUBLISH_RETRY_MS, async () => { try { await this.jsm.streams.delete(`OBJ_${snapshotBucket(cluster)}`); } catch (e) { if (!isNotFound(e)) throw e; } });
  }

  /**
   * Appends one op; resolves with its stream sequence once JetStream acknowledged it (stored on a
   * quorum of the stream's replicas). `msgId` makes a retried publish land once (JetStream's dedup).
   */
  async publish(cluster: string, data: Uint8Array, msgId: string): Promise<number> {
    // refused at once: retrying a message NATS will never take would only stall the writer
    const max = this.nc.info?.max_payload;
    if (max !== undefined && data.length > max) {
      throw new SearchError('BAD_VALUE', `the write is ${data.length} bytes, more than the NATS servers' max_payload (${max} bytes): split it into smaller requests`);
    }
    const ack = await retrying(PUBLISH_RETRY_MS, () => this.js.publish(subjectOf(cluster), data, { msgID: msgId, timeout: 5000 }),
      (e) => isNotFound(e) || /no stream/i.test(String(e)));
    return ack.seq;
  }

  /** The last sequence in the cluster's stream (what a node must reach to be synced). */
  async lastSeq(cluster: string): Promise<number> {
    const info = await this.jsm.streams.info(streamName(cluster));
    return info.state.last_seq;
  }

  /** The first sequence the stream still holds (1 until a trim; last + 1 when it holds nothing). */
  async firstSeq(cluster: string): Promise<number> {
    const info = await retrying(PUBLISH_RETRY_MS, () => this.jsm.streams.info(streamName(cluster)));
    return info.state.first_seq;
  }

  /** Removes the stream's messages up to and including `seq` (JetStream's purge); never a later one. */
  async trimThrough(cluster: string, seq: number): Promise<void> {
    await retrying(PUBLISH_RETRY_MS, () => this.jsm.streams.purge(streamName(cluster), { seq: seq + 1 }));
  }

  /** Every node's durable consumer: its address (the consumer's description) and its acked sequence. */
  async nodes(cluster: string): Promise<{ node: string; acked: number }[]> {
    const out: { node: string; acked: number }[] = [];
    for await (const ci of this.jsm.consumers.list(streamName(cluster))) {
      out.push({ node: ci.config.description ?? ci.name, acked: ci.ack_floor.stream_seq });
    }
    return out.sort((a, b) => a.node.localeCompare(b.node));
  }

  /**
   * (Re)creates this node's durable consumer to deliver from `fromSeq` (the node's own applied sequence
   * + 1, which is the truth: the consumer is recreated so it can never skip what the table lacks).
   */
  async follow(cluster: string, node: string, fromSeq: number): Promise<AsyncIterable<JsMsg> & { stop(): void | Promise<void> }> {
    const stream = streamName(cluster);
    const durable = consumerName(node);
    await retrying(PUBLISH_RETRY_MS, async () => { try { await this.jsm.consumers.delete(stream, durable); } catch (e) { if (!isNotFound(e)) throw e; } });
    await retrying(PUBLISH_RETRY_MS, () => this.jsm.consumers.add(stream, {
      durable_name: durable, description: node, ack_policy: AckPolicy.Explicit,
      deliver_policy: DeliverPolicy.StartSequence, opt_start_seq: Math.max(1, fromSeq),
    }));
    const consumer = await retrying(PUBLISH_RETRY_MS, () => this.js.consumers.get(stream, durable));
    // short pulls with 1 s heartbeats: a pull lost with a NATS server is noticed in about 2 s, not 30
    return consumer.consume({ max_messages: 512, expires: 5000, idle_heartbeat: 1000 });
  }

  /** Removes this node's consumer (the node left, or the cluster was deleted). */
  async unfollow(cluster: string, node: string): Promise<void> {
    try { await this.jsm.consumers.delete(streamName(cluster), consumerName(node)); } catch { /* gone already */ }
  }

  async putSnapshot(cluster: string, name: string, bytes: Uint8Array): Promise<void> {
    await retrying(PUBLISH_RETRY_MS, async () => {
      const os = await new Objm(this.nc).open(snapshotBucket(cluster));
      await os.putBlob({ name }, bytes);
    });
  }

  async getSnapshot(cluster: string, name: string): Promise<Uint8Array> {
    const bytes = await retrying(PUBLISH_RETRY_MS, async () => {
      const os = await new Objm(this.nc).open(snapshotBucket(cluster));
      return os.getBlob(name);
    });
    if (!bytes) throw new SearchError('INTERNAL', `cluster '${cluster}': snapshot '${name}' is missing from the object store`);
    return bytes;
  }

  /** Names of the objects in the cluster's snapshot bucket. */
  async snapshotNames(cluster: string): Promise<string[]> {
    return retrying(PUBLISH_RETRY_MS, async () => {
      const os = await new Objm(this.nc).open(snapshotBucket(cluster));
      return (await os.list()).filter((o) => !o.deleted).map((o) => o.name);
    });
  }

  /** Deletes a snapshot object; one already gone is fine. */
  async deleteSnapshot(cluster: string, name: string): Promise<void> {
    await retrying(PUBLISH_RETRY_MS, async () => {
      const os = await new Objm(this.nc).open(snapshotBucket(cluster));
      try { await os.delete(name); } catch (e) { if (!isNotFound(e)) throw e; }
    });
  }

  async close(): Promise<void> {
    await this.nc.drain().catch(() => this.nc.close());
  }
}

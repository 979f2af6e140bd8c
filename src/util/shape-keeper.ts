/**
 * One live instance of each class that a burst of work makes and drops again (the RAM tail's seal, an
 * INSERT's parse, a reply's packets), held for the life of the process. V8's optimized code holds the
 * maps (hidden classes) it was specialized for weakly: a class's instances get their map by adding
 * fields to its initial map, and those later maps are referenced only by the instances and by a weak
 * transition. Between two bursts no instance is alive, so a full collection then (the idle collector's
 * forced one after every pause between bursts of writes, src/engine/background/idle-gc.ts, or V8's
 * memory reducer) frees the maps, and every function optimized for them is deoptimized ('weak objects'
 * under --trace-deopt) and compiled again in the next burst, on V8's compiler threads
 * (--retain-maps-for-n-gc does not keep them through these collections). A kept instance keeps its
 * map, and the code with it (about 20 KiB per thread: each U32List holds a 4 KiB array, a PairNumbers
 * four; the kept ones are never handed out, so no burst shares their state).
 * Session 17, the seal's ByteWriter, U32List, PairNumbers (insert-ab --phases 1 --statements 2000, 8
 * rounds alternated, load 10-28): weak-object deopts per forced collection 35 -> 25, the whole run's
 * server CPU 6909 -> 6560 ms (mean; 7 of 8 lower). Session 18, also TextRow, StreamSink, ScannedFields,
 * the INSERT fast path's Scan, PacketWriter and (keepLatest) the last closed connection: 29-38 -> 3-10
 * per forced collection (traced, load 14-19); whole-run server CPU, 4 rounds alternated each, MySQL
 * 6165 -> 5903 ms mean, /sql 6548 -> 6108 (4 of 4 lower each, load 16-20).
 */
const kept: object[] = [];

/** Keeps `instance` (and so its map) alive; returns it. */
export function keepShape<T extends object>(instance: T): T {
  kept.push(instance);
  return instance;
}

const latest = new Map<string, object>();

/**
 * Keeps `instance` alive in the slot `key` until the next one for that key, for objects that cannot be
 * made on their own (a connection's socket, made by Node per connection): the last one closed keeps its
 * maps, and Node's stream and socket maps with it, while no client is connected. Holds one of each.
 */
export function keepLatest(key: string, instance: object): void {
  latest.set(key, instance);
}

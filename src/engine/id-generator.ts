/**
 * Auto ids as Manticore makes them (spec section 6): bits 56-62 server_id & 127, bits 24-55 the
 * server start time in seconds since 2019-05-01 00:00 UTC, bits 0-23 a counter shared by all tables.
 * The whole low 56 bits are incremented, so a counter overflow carries into the time part.
 *
 * Unique and increasing across restarts even when the clock goes back or two starts fall in one
 * second: ids are handed out from blocks reserved durably in the store before use; a restart begins
 * above the last reserved block.
 */

/** 2019-05-01T00:00:00Z in seconds: Manticore's epoch for auto ids. */
export const AUTO_ID_EPOCH_S = 1556668800;
/** Ids reserved per durable write of the high-water mark. */
export const AUTO_ID_BLOCK = 1n << 16n;
const LOW56 = (1n << 56n) - 1n;

export interface IdReservations {
  /** The highest id reserved by any earlier run (0n if none). */
  load(): bigint;
  /** Durably records that ids up to `upTo` may have been handed out. */
  save(upTo: bigint): Promise<void>;
}

/** Where writes take generated ids: the generator, or a replicated write's ids fixed by its writer. */
export type IdSource = Pick<IdGenerator, 'take'>;

export class IdGenerator {
  #next: bigint;
  #reservedUpTo: bigint;
  readonly #prefix: bigint;
  readonly #store: IdReservations;
  /** Reservation writes in order; every take waits for the one covering its ids. */
  #saving: Promise<void> = Promise.resolve();

  constructor(store: IdReservations, serverId = 0, nowMs = Date.now()) {
    this.#store = store;
    this.#prefix = BigInt(serverId & 127) << 56n;
    const startS = BigInt(Math.max(0, Math.floor(nowMs / 1000) - AUTO_ID_EPOCH_S));
    const fromClock = this.#prefix | ((startS << 24n) & LOW56);
    const previous = store.load();
    // The first id is base+1: Manticore's first id in a fresh run is `start<<24 | 1`.
    this.#next = (previous >= fromClock ? previous : fromClock) + 1n;
    this.#reservedUpTo = this.#next - 1n;
  }

  /** Hands out `count` new ids; resolves once their block's reservation is durable. */
  async take(count: number): Promise<bigint[]> {
    const first = this.#next;
    this.#next += BigInt(count);
    const last = this.#next - 1n;
    if (last > this.#reservedUpTo) {
      this.#reservedUpTo = last + AUTO_ID_BLOCK;
      const upTo = this.#reservedUpTo;
      this.#saving = this.#saving.then(() => this.#store.save(upTo));
    }
    await this.#saving;
    const out: bigint[] = new Array(count);
    for (let i = 0; i < count; i++) out[i] = this.#prefix | ((first + BigInt(i)) & LOW56);
    return out;
  }
}

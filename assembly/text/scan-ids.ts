// The field scanner's token-id cache (scan.ts): an open-addressing table of the distinct folded tokens
// seen, their keys in an arena the host mirrors as strings (src/wasm/field-scanner.ts), and a small
// front cache of recent short tokens. Split from scan.ts, which tokenizes and looks tokens up here.

/**
 * Distinct tokens before the cache starts over (the host then renumbers): about 15 MiB of core
 * memory at the most (slots, key records), and all of dict-gcide's vocabulary fits.
 */
const MAX_IDS: i32 = 1 << 18;
/** Slot records of the open-addressing table, kept at most half full; it starts small and doubles. */
const FIRST_SLOTS: i32 = 1 << 14;
/** A slot: hash u32, id + 1 u32 (0 = empty), key offset u32, key length u32: one cache line holds four. */
export const SLOT_BYTES: i32 = 16;

export let slots: usize = 0;
export let slotCount: i32 = 0;
let idOff: usize = 0; // u32 per id: key offset in arena units (what the host reads)
let idLen: usize = 0; // u32 per id: key length in units
let idCap: i32 = 0;
export let arena: usize = 0; // u16 keys
let arenaCap: i32 = 0;
let count: i32 = 0;
let arenaUsed: i32 = 0;
/**
 * A small direct-mapped cache of recent short tokens in front of the table: | key u64 x2 (up to 8
 * units, zero-padded) | units u32 | id u32 | pad |. Frequent words (most of any text) are named from
 * it without touching the table and arena, whose lines a large vocabulary keeps out of the CPU's
 * caches (the look-ups were half of a scan); 128 KiB, so it stays near the core. On the heap with
 * the table (a static area would put 128 KiB of zeros in the binary and in every instance).
 */
const FRONT_SLOTS: i32 = 4096;
const FRONT_BYTES: i32 = 32;
export const FRONT_UNITS: i32 = 8;
let front: usize = 0;

@inline export function frontSlot(h: u32): usize {
  return front + <usize>((h ^ (h >> 13)) & <u32>(FRONT_SLOTS - 1)) * FRONT_BYTES;
}
const HASH_A: u64 = 0x9e3779b97f4a7c15;
const HASH_B: u64 = 0xc2b2ae3d27d4eb4f;
const HASH_C: u64 = 0xbf58476d1ce4e5b9;

/**
 * The hash of a token's key, `units` UTF-16 units at `tok`, taken once the token ends: 8 bytes at a
 * time (a short key is zero-padded to 8 units, so it is two loads and no loop), instead of a multiply
 * per character in the scan loop, which the SIMD run skips.
 */
@inline export function keyHash(tok: usize, units: i32): u32 {
  let x: u64;
  if (units <= FRONT_UNITS) {
    x = (load<u64>(tok) * HASH_A) ^ ((load<u64>(tok, 8) + <u64>units) * HASH_B);
  } else {
    x = <u64>units * HASH_B;
    const words = units >> 2;
    for (let i = 0; i < words; i++) x = ((x ^ load<u64>(tok + (<usize>i << 3))) * HASH_A) ^ (x >> 31);
    for (let i = words << 2; i < units; i++) x = (x ^ <u64>load<u16>(tok + (<usize>i << 1))) * HASH_B;
  }
  x ^= x >> 29;
  x *= HASH_C;
  x ^= x >> 32;
  return <u32>x;
}

/** Empties the cache (back to its first size); ids start again from 0. */
export function scanReset(): void {
  if (slots != 0) {
    heap.free(slots);
    heap.free(idOff);
    heap.free(idLen);
    heap.free(arena);
  }
  slotCount = FIRST_SLOTS;
  slots = heap.alloc(<usize>slotCount * SLOT_BYTES);
  memory.fill(slots, 0, <usize>slotCount * SLOT_BYTES);
  idCap = FIRST_SLOTS >> 1;
  idOff = heap.alloc(<usize>idCap << 2);
  idLen = heap.alloc(<usize>idCap << 2);
  arenaCap = idCap * 8;
  arena = heap.alloc(<usize>arenaCap << 1);
  count = 0;
  arenaUsed = 0;
  if (front == 0) front = heap.alloc(<usize>FRONT_SLOTS * FRONT_BYTES);
  memory.fill(front, 0, <usize>FRONT_SLOTS * FRONT_BYTES);
}

/** Distinct tokens in the cache; ids below it are valid. */
export function scanCount(): i32 {
  return count;
}

/** Where the host reads a new id's key: u32 offsets, u32 lengths, u16 arena (they move as they grow). */
export function scanKeyOffsets(): usize {
  return idOff;
}
export function scanKeyLengths(): usize {
  return idLen;
}
export function scanArena(): usize {
  return arena;
}

/** Doubles the slot table, re-placing every entry by its stored hash. */
function growSlots(): void {
  const old = slots;
  const oldCount = slotCount;
  slotCount <<= 1;
  slots = heap.alloc(<usize>slotCount * SLOT_BYTES);
  memory.fill(slots, 0, <usize>slotCount * SLOT_BYTES);
  for (let i = 0; i < oldCount; i++) {
    const e = old + <usize>i * SLOT_BYTES;
    if (load<u32>(e, 4) == 0) continue;
    let slot = <i32>(load<u32>(e) & <u32>(slotCount - 1));
    while (load<u32>(slots + <usize>slot * SLOT_BYTES, 4) != 0) slot = (slot + 1) & (slotCount - 1);
    memory.copy(slots + <usize>slot * SLOT_BYTES, e, SLOT_BYTES);
  }
  heap.free(old);
}

/** True when the `units` UTF-16 units at `a` and `b` are equal (8 bytes at a time, then the rest). */
function sameKey(a: usize, b: usize, units: i32): bool {
  const bytes = <usize>units << 1;
  let i: usize = 0;
  for (; i + 8 <= bytes; i += 8) if (load<u64>(a + i) != load<u64>(b + i)) return false;
  for (; i < bytes; i += 2) if (load<u16>(a + i) != load<u16>(b + i)) return false;
  return true;
}

/** The id of the token at `tok` (`units` long, `h` its keyHash), added when new; -1 when the cache is full. */
export function idOf(tok: usize, units: i32, h: u32): i32 {
  const mask = slotCount - 1;
  let slot = <i32>(h & <u32>mask);
  let e = slots + <usize>slot * SLOT_BYTES;
  for (;;) {
    const id1 = load<u32>(e, 4);
    if (id1 == 0) break;
    if (load<u32>(e) == h && load<u32>(e, 12) == <u32>units
      && sameKey(arena + (<usize>load<u32>(e, 8) << 1), tok, units)) return <i32>id1 - 1;
    slot = (slot + 1) & mask;
    e = slots + <usize>slot * SLOT_BYTES;
  }
  if (count >= MAX_IDS) return -1;
  if (count >= idCap) {
    idCap <<= 1;
    idOff = heap.realloc(idOff, <usize>idCap << 2);
    idLen = heap.realloc(idLen, <usize>idCap << 2);
  }
  if (arenaUsed + units > arenaCap) {
    while (arenaUsed + units > arenaCap) arenaCap <<= 1;
    arena = heap.realloc(arena, <usize>arenaCap << 1);
  }
  const id = count++;
  store<u32>(idOff + (<usize>id << 2), <u32>arenaUsed);
  store<u32>(idLen + (<usize>id << 2), <u32>units);
  memory.copy(arena + (<usize>arenaUsed << 1), tok, <usize>units << 1);
  store<u32>(e, h);
  store<u32>(e, <u32>id + 1, 4);
  store<u32>(e, <u32>arenaUsed, 8);
  store<u32>(e, <u32>units, 12);
  arenaUsed += units;
  if (count * 2 > slotCount) growSlots();
  return id;
}


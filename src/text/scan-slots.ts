/**
 * The field walk's memos by scanner token id (field-walk.ts), two i32s a token side by side: its term
 * number (lane NUM) and its id in the current batch's sink (lane BATCH_ID). A bulk load's token loop
 * reads the batch id of every token, and on a token's first sight in a batch its number: in two
 * arrays of a gcide import's 200k+ ids (0.8 MiB each, mostly out of cache) those were two cache
 * misses where the pair now costs one.
 */

/** A lane's entries: a token not looked up yet, and a stopword. */
export const UNNUMBERED = -1;
export const STOPWORD = -2;
/** Lanes of a token's slot: slots[(id << 1) + lane]. */
export const NUM = 0;
export const BATCH_ID = 1;

/** `slots` or a copy grown to hold `ids` tokens, the new ones UNNUMBERED in both lanes. */
export function slotsFor(slots: Int32Array<ArrayBuffer>, ids: number): Int32Array<ArrayBuffer> {
  if (slots.length >= ids << 1) return slots;
  const grown = new Int32Array(Math.max(ids, slots.length, 1024) << 1).fill(UNNUMBERED);
  grown.set(slots);
  return grown;
}

/** Every token's `lane` back to UNNUMBERED (the other lane kept). */
export function clearLane(slots: Int32Array, lane: number): void {
  for (let i = lane; i < slots.length; i += 2) slots[i] = UNNUMBERED;
}

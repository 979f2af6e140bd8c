// Shared constants of the core: sentinels and the negative E_* codes every export may return.

/** Returned by cursors and nodes once exhausted; never a valid rowId. seek(TERMINATED) is legal. */
export const TERMINATED: u32 = 0x7fffffff;

/** The plan is malformed (bad magic, unknown opcode, sizes out of range). */
export const E_BAD_PLAN: i32 = -1;
/** The segment blob is malformed (bad magic or version). */
export const E_BAD_SEGMENT: i32 = -2;
/** A buffer could not be grown. */
export const E_NO_MEMORY: i32 = -3;

/** Hitpos layout, as Manticore's HITMAN: field << 24 | fieldEnd << 23 | pos (1-based). */
export const FIELD_SHIFT: u32 = 24;
export const FIELD_END_BIT: u32 = 0x00800000;
export const POS_MASK: u32 = 0x007fffff;

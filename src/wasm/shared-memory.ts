/**
 * The core is built with an imported, non-shared memory (what a page without cross-origin isolation
 * can instantiate). Worker threads need that memory shared: sharedVariant() flips the memory import's
 * limits flag from "has maximum" (0x01) to "shared, has maximum" (0x03) in the module's bytes, the one
 * byte in which the two builds differ, so one artifact serves both.
 */

/** Reads an unsigned LEB128 at `at`; returns [value, next offset]. */
function uleb(b: Uint8Array, at: number): [number, number] {
  let v = 0;
  let shift = 0;
  for (;;) {
    const x = b[at++];
    if (x === undefined) throw new Error('quarry: truncated WASM module');
    v += (x & 0x7f) * 2 ** shift;
    if (x < 0x80) return [v, at];
    shift += 7;
  }
}

/** Offset of the limits flag of the module's imported memory, or -1 when it imports none. */
export function memoryImportFlagAt(b: Uint8Array): number {
  let at = 8; // magic + version
  while (at < b.length) {
    const id = b[at];
    const [size, body] = uleb(b, at + 1);
    if (id === 2) {
      let [count, p] = uleb(b, body);
      for (; count > 0; count--) {
        const [modLen, m] = uleb(b, p);
        const [fieldLen, f] = uleb(b, m + modLen);
        p = f + fieldLen;
        const kind = b[p++];
        if (kind === 0x02) return p; // memory: limits flag, then min (and max)
        if (kind === 0x00) p = uleb(b, p)[1]; // function: type index
        else if (kind === 0x01) { p++; const flag = b[p++]; p = uleb(b, p)[1]; if (flag & 1) p = uleb(b, p)[1]; } // table
        else if (kind === 0x03) p += 2; // global: value type, mutability
        else throw new Error(`quarry: unknown import kind ${kind}`);
      }
      return -1;
    }
    at = body + size;
  }
  return -1;
}

/** A copy of the module's bytes with its imported memory declared shared; null when it has none with a maximum. */
export function sharedVariant(bytes: Uint8Array): Uint8Array<ArrayBuffer> | null {
  const at = memoryImportFlagAt(bytes);
  if (at < 0 || (bytes[at] !== 0x01 && bytes[at] !== 0x03)) return null;
  const out = bytes.slice();
  out[at] = 0x03;
  return out;
}

// Naive twins of the core's small kernels: bit-unpacking, delta decoding, sorted intersection.

/** Value i of an LSB-first packed run, bit by bit. */
export function unpack(words: Uint32Array, n: number, bits: number): number[] {
  const out: number[] = [];
  for (let i = 0; i < n; i++) {
    let v = 0;
    for (let b = 0; b < bits; b++) {
      const bit = i * bits + b;
      if ((words[bit >>> 5] >>> (bit & 31)) & 1) v += 2 ** b;
    }
    out.push(v);
  }
  return out;
}

export function undelta(values: number[], base: number): number[] {
  const out: number[] = [];
  let acc = base;
  for (const v of values) out.push((acc = (acc + v) >>> 0));
  return out;
}

export function intersectSorted(a: ArrayLike<number>, b: ArrayLike<number>): number[] {
  const set = new Set(Array.from(b));
  return Array.from(a).filter((x) => set.has(x));
}

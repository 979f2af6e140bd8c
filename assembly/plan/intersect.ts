// Sorted u32 list intersection (the AND kernel exposed for tests and benches): galloping search
// of the shorter list's values in the longer one (Bentley & Yao's exponential search).

/** Writes the common values of a[0..aLen) and b[0..bLen) (both ascending) to out; returns the count. */
export function intersectSorted(a: usize, aLen: i32, b: usize, bLen: i32, out: usize): i32 {
  return aLen <= bLen ? gallop(a, aLen, b, bLen, out) : gallop(b, bLen, a, aLen, out);
}

@inline function at(p: usize, i: i32): u32 {
  return load<u32>(p + (<usize>i << 2));
}

function gallop(s: usize, sLen: i32, l: usize, lLen: i32, out: usize): i32 {
  let n = 0;
  let j = 0;
  for (let i = 0; i < sLen && j < lLen; i++) {
    const v = at(s, i);
    if (at(l, j) < v) {
      let step = 1;
      let lo = j;
      let hi = j + 1;
      while (hi < lLen && at(l, hi) < v) {
        lo = hi;
        hi += step;
        step <<= 1;
      }
      if (hi > lLen) hi = lLen;
      // invariant: l[lo] < v, answer in (lo, hi]
      lo++;
      while (lo < hi) {
        const mid = (lo + hi) >>> 1;
        if (at(l, mid) < v) lo = mid + 1;
        else hi = mid;
      }
      j = lo;
      if (j >= lLen) break;
    }
    if (at(l, j) == v) {
      store<u32>(out + (<usize>n << 2), v);
      n++;
      j++;
    }
  }
  return n;
}

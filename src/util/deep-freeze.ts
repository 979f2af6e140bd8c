/** deepFreeze: shared parse trees made read-only, so code that would change one throws instead. */

/**
 * Freezes `v` and every plain object and array reachable from it (a parse tree has no cycles). Class
 * instances (a RegExp's lastIndex, a LosslessNumber) keep their own state and are not descended into.
 * Every first-time statement, MATCH text and plan is frozen once (engine/parse-cache.ts,
 * index/plan-cache.ts), so this walks without Object.keys's array per object: an array by index, an
 * object by for-in (a plain object's prototype has no enumerable keys). An array's own named keys (a
 * RegExp match's `groups`) are frozen but not descended into: no parse keeps a match array.
 */
export function deepFreeze<T>(v: T): T {
  if (v === null || typeof v !== 'object' || Object.isFrozen(v)) return v;
  const proto = Object.getPrototypeOf(v);
  if (proto === Array.prototype) {
    Object.freeze(v);
    const a = v as unknown as unknown[];
    for (let i = 0; i < a.length; i++) deepFreeze(a[i]);
    return v;
  }
  if (proto !== Object.prototype && proto !== null) return v;
  Object.freeze(v);
  for (const k in v) deepFreeze((v as Record<string, unknown>)[k]);
  return v;
}

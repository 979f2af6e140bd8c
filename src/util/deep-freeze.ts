/** deepFreeze: shared parse trees made read-only, so code that would change one throws instead. */

/**
 * Freezes `v` and every plain object and array reachable from it (a parse tree has no cycles). Class
 * instances (a RegExp's lastIndex, a LosslessNumber) keep their own state and are not descended into.
 */
export function deepFreeze<T>(v: T): T {
  if (v === null || typeof v !== 'object' || Object.isFrozen(v)) return v;
  const proto = Object.getPrototypeOf(v);
  if (proto !== Object.prototype && proto !== Array.prototype && proto !== null) return v;
  Object.freeze(v);
  for (const k of Object.keys(v)) deepFreeze((v as Record<string, unknown>)[k]);
  return v;
}

// The README's comparison rules: exact, contains, contains-unordered, shape; vary paths; lossless numbers.
import { compareLosslessNumber, isLosslessNumber, LosslessNumber } from 'lossless-json';
import type { Case, CompareMode } from './cases.js';
import type { Outcome } from './transport.js';

/** Paths whose list is compared as a multiset under `contains-unordered`. */
const UNORDERED_LISTS = new Set(['rows', 'body.hits.hits']);

interface Ctx {
  mode: CompareMode;
  /** Normalized vary paths (`body.hits.hits[0]._id`): only presence is checked there. */
  vary: Set<string>;
  diffs: string[];
}

function show(v: unknown): string {
  if (isLosslessNumber(v)) return v.toString();
  if (typeof v === 'string') return JSON.stringify(v.length > 200 ? `${v.slice(0, 200)}...` : v);
  if (typeof v === 'bigint') return v.toString();
  const text = JSON.stringify(v, (_k, x: unknown) => (isLosslessNumber(x) ? Number(x.toString()) : typeof x === 'bigint' ? x.toString() : x));
  return text === undefined ? 'undefined' : text.length > 200 ? `${text.slice(0, 200)}...` : text;
}

function isNumberLike(v: unknown): v is LosslessNumber | number | bigint {
  return isLosslessNumber(v) || typeof v === 'number' || typeof v === 'bigint';
}

function sameNumber(a: LosslessNumber | number | bigint, b: LosslessNumber | number | bigint): boolean {
  const la = isLosslessNumber(a) ? a : new LosslessNumber(String(a));
  const lb = isLosslessNumber(b) ? b : new LosslessNumber(String(b));
  return compareLosslessNumber(la, lb) === 0;
}

function isObject(v: unknown): v is Record<string, unknown> {
  return typeof v === 'object' && v !== null && !Array.isArray(v) && !isLosslessNumber(v);
}

function matchScalar(exp: unknown, act: unknown, path: string, key: string, ctx: Ctx): boolean {
  if (isNumberLike(exp) && isNumberLike(act) && sameNumber(exp, act)) return true;
  if (ctx.mode !== 'exact' && typeof exp === 'string' && typeof act === 'string') {
    // contains: an error message, or a raw text body, only has to contain the expected text
    if ((key === 'error' || path === 'body') && act.includes(exp)) return true;
  }
  if (exp === act) return true;
  ctx.diffs.push(`${path || '(top)'}: expected ${show(exp)}, got ${show(act)}`);
  return false;
}

function matchUnordered(exp: unknown[], act: unknown[], path: string, ctx: Ctx): boolean {
  const used = new Set<number>();
  let ok = true;
  exp.forEach((e, i) => {
    const found = act.findIndex((a, j) => !used.has(j) && match(e, a, `${path}[${i}]`, { ...ctx, diffs: [] }));
    if (found < 0) {
      ctx.diffs.push(`${path}: no match for expected ${show(e)}`);
      ok = false;
    } else used.add(found);
  });
  return ok;
}

function matchArray(exp: unknown[], act: unknown, path: string, ctx: Ctx): boolean {
  if (!Array.isArray(act)) {
    ctx.diffs.push(`${path}: expected an array, got ${show(act)}`);
    return false;
  }
  if (exp.length !== act.length) {
    ctx.diffs.push(`${path}: expected ${exp.length} elements, got ${act.length}: ${show(act)}`);
    return false;
  }
  if (ctx.mode === 'contains-unordered' && UNORDERED_LISTS.has(path)) return matchUnordered(exp, act, path, ctx);
  return exp.map((e, i) => match(e, act[i], `${path}[${i}]`, ctx)).every(Boolean);
}

function matchObject(exp: Record<string, unknown>, act: unknown, path: string, ctx: Ctx): boolean {
  if (!isObject(act)) {
    ctx.diffs.push(`${path || '(top)'}: expected an object, got ${show(act)}`);
    return false;
  }
  let ok = true;
  for (const [k, v] of Object.entries(exp)) {
    const sub = path ? `${path}.${k}` : k;
    if (!(k in act)) {
      ctx.diffs.push(`${sub}: missing`);
      ok = false;
    } else if (!match(v, act[k], sub, ctx, k)) ok = false;
  }
  if (ctx.mode === 'exact') {
    for (const k of Object.keys(act)) {
      if (!(k in exp)) {
        ctx.diffs.push(`${path ? `${path}.${k}` : k}: unexpected ${show(act[k])}`);
        ok = false;
      }
    }
  }
  return ok;
}

function match(exp: unknown, act: unknown, path: string, ctx: Ctx, key = ''): boolean {
  if (ctx.vary.has(path)) {
    if (act !== undefined) return true;
    ctx.diffs.push(`${path}: missing (varying value)`);
    return false;
  }
  if (Array.isArray(exp)) return matchArray(exp, act, path, ctx);
  if (isObject(exp)) return matchObject(exp, act, path, ctx);
  return matchScalar(exp, act, path, key, ctx);
}

/** `a.b[0].c` as the runner writes paths; HTTP paths not starting at status/body are inside body. */
export function normalizeVary(path: string, http: boolean): string {
  if (!http) return path;
  return /^(status|body)(\.|\[|$)/.test(path) ? path : `body.${path}`;
}

/** What the case's `expect` is compared against, in the same shape. */
export function actualDoc(outcome: Outcome): Record<string, unknown> {
  switch (outcome.kind) {
    case 'http':
      return { status: outcome.status, body: outcome.body };
    case 'rows':
      return { columns: outcome.columns, rows: outcome.rows, ...(outcome.more ? { more: outcome.more } : {}) };
    case 'ok':
      return { ok: true, affected: outcome.affected };
    case 'error':
      return { error: outcome.error, errno: outcome.errno };
  }
}

function shapeCheck(exp: Record<string, unknown>, act: Record<string, unknown>, ctx: Ctx): void {
  if (exp.status !== null && exp.status !== undefined && !ctx.vary.has('status')) {
    match(exp.status, act.status, 'status', ctx);
  }
  const keys = isObject(exp.body) ? Object.keys(exp.body).map((k) => `body.${k}`) : [];
  for (const path of [...keys, ...ctx.vary]) {
    if (path === 'status' || path === 'body') continue;
    const value = path.split(/\.|\[|\]/).filter(Boolean).reduce<unknown>((v, k) => (v as Record<string, unknown>)?.[k], act);
    if (value === undefined) ctx.diffs.push(`${path}: missing`);
  }
}

/** Compares an outcome with a case's expectation; returns the differences (empty = pass). */
export function compareOutcome(c: Case, outcome: Outcome): string[] {
  const http = 'status' in c.expect || 'body' in c.expect;
  const ctx: Ctx = { mode: c.compare, vary: new Set(c.vary.map((p) => normalizeVary(p, http))), diffs: [] };
  const act = actualDoc(outcome);
  if (c.compare === 'shape') {
    shapeCheck(c.expect, act, ctx);
    return ctx.diffs;
  }
  const exp = { ...c.expect };
  if (http && (exp.status === null || exp.status === undefined)) {
    delete exp.status; // not recorded by the source
    delete act.status;
  }
  if (!http && exp.columns === null) {
    delete exp.columns; // column list not recorded
    delete act.columns;
  }
  if (!http && 'error' in exp && !('errno' in exp)) delete act.errno;
  match(exp, act, '', ctx);
  return ctx.diffs;
}

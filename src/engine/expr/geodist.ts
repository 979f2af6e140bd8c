/**
 * GEODIST(lat1, lon1, lat2, lon2 [, {in=deg|rad, out=m|km|mi|..., method=adaptive|haversine}]): the
 * distance between two points, in float32 as Manticore computes it. `adaptive` (the default) uses a
 * flat-ellipsoid model for points less than 13 degrees of longitude apart and a table-driven haversine
 * beyond; `haversine` is the plain formula over a 6384 km sphere (Manticore's constants).
 */
import type { Expr } from '../../sql/ast.js';
import { exprError } from './errors.js';
import { toFloat, type CompiledExpr } from './values.js';
import type { ExprContext } from './compile.js';

const f = Math.fround;
const COS_STEPS = 1024;
const ASIN_STEPS = 512;
const K_STEPS = 1024;

/** Lookup tables of the adaptive method (float32, as Manticore builds them at start). */
const COS = Float32Array.from({ length: COS_STEPS + 1 }, (_, i) => Math.cos((2 * Math.PI * i) / COS_STEPS));
const ASIN = Float32Array.from({ length: ASIN_STEPS + 1 }, (_, i) => Math.asin(Math.sqrt(i / ASIN_STEPS)));
const K1 = new Float32Array(K_STEPS + 1);
const K2 = new Float32Array(K_STEPS + 1);
for (let i = 0; i <= K_STEPS; i++) {
  const x = (Math.PI * i) / K_STEPS - Math.PI * 0.5;
  K1[i] = (111132.09 - 566.05 * Math.cos(2 * x) + 1.2 * Math.cos(4 * x)) ** 2;
  K2[i] = (111415.13 * Math.cos(x) - 94.55 * Math.cos(3 * x) + 0.12 * Math.cos(5 * x)) ** 2;
}

const RAD = f(Math.PI / 180);
const HALF_RAD = f(Math.PI / 360);
const DEG = f(180 / Math.PI);

/** |a - b| in degrees folded into [0, 180]. */
function degDiff(x: number): number {
  let v = f(Math.abs(x));
  while (v > 360) v = f(v - 360);
  return v > 180 ? f(360 - v) : v;
}

function tableCos(x: number, shift: number): number {
  let y = f((Math.abs(x) * COS_STEPS) / Math.PI / 2);
  let i = Math.trunc(y);
  y = f(y - i);
  i = (i - shift) & (COS_STEPS - 1);
  return f(COS[i]! + f(f(COS[i + 1]! - COS[i]!) * y));
}

function asinSqrt(x: number): number {
  if (x < 0.122) {
    const y = f(Math.sqrt(x));
    return f(f(f(y + f(f(x * y) * f(0.166666666666666))) + f(f(f(x * x) * y) * f(0.075))) + f(f(f(f(x * x) * x) * y) * f(0.044642857142857)));
  }
  if (x < 0.948) {
    const s = f(x * ASIN_STEPS);
    const i = Math.trunc(s);
    return f(ASIN[i]! + f(f(ASIN[i + 1]! - ASIN[i]!) * f(s - i)));
  }
  return f(Math.asin(Math.sqrt(x)));
}

export function geodistAdaptiveDeg(lat1: number, lon1: number, lat2: number, lon2: number): number {
  const dlat = degDiff(f(lat1 - lat2));
  const dlon = degDiff(f(lon1 - lon2));
  if (dlon < 13) {
    const m = f(f(f(f(lat1 + lat2) + 180) * K_STEPS) / 360);
    const i = Math.trunc(m) & (K_STEPS - 1);
    const t = f(m - i);
    const k1 = f(K1[i]! + f(f(K1[i + 1]! - K1[i]!) * t));
    const k2 = f(K2[i]! + f(f(K2[i + 1]! - K2[i]!) * t));
    return f(Math.sqrt(f(f(f(dlat * dlat) * k1) + f(f(dlon * dlon) * k2))));
  }
  const sinLat = tableCos(f(dlat * HALF_RAD), COS_STEPS / 4);
  const sinLon = tableCos(f(dlon * HALF_RAD), COS_STEPS / 4);
  const d = f(f(f(sinLon * sinLon) * tableCos(f(lat1 * RAD), 0)) * tableCos(f(lat2 * RAD), 0));
  const a = f(f(sinLat * sinLat) + d);
  return f(f(2 * 6371000) * asinSqrt(a));
}

export function geodistHaversineDeg(lat1: number, lon1: number, lat2: number, lon2: number): number {
  const dlat = (Math.PI / 360) * (lat1 - lat2);
  const dlon = (Math.PI / 360) * (lon1 - lon2);
  const a = Math.sin(dlat) ** 2 + Math.cos((Math.PI / 180) * lat1) * Math.cos((Math.PI / 180) * lat2) * Math.sin(dlon) ** 2;
  return f(2 * 6384000 * Math.asin(Math.min(1, Math.sqrt(a))));
}

/** Metres per unit of `out=` (Manticore's unit table). */
export const DISTANCE_UNITS: Record<string, number> = {
  mi: 1609.34, miles: 1609.34, yd: 0.9144, yards: 0.9144, ft: 0.3048, feet: 0.3048, in: 0.0254, inch: 0.0254,
  km: 1000, kilometers: 1000, m: 1, meters: 1, cm: 0.01, centimeters: 0.01, mm: 0.001, millimeters: 0.001,
  NM: 1852, nmi: 1852, nauticalmiles: 1852,
};

function optionWord(v: unknown): string {
  const o = v as { kind: string; name?: string; value?: unknown };
  return o.kind === 'ident' ? o.name! : String(o.value);
}

export function geodistCall(ctx: ExprContext, e: Expr & { kind: 'call' }, args: CompiledExpr[]): CompiledExpr {
  if (e.args.length > 5) throw exprError(ctx.table, `geodist() called with ${e.args.length} args, at most 5 args expected`);
  let deg = false;
  let scale = 1;
  let haversine = false;
  const opts = e.args[4];
  if (opts) {
    if (opts.kind !== 'map') throw exprError(ctx.table, 'geodist() argument 5 must be map');
    for (const { name, value } of opts.entries) {
      const word = optionWord(value);
      if (name === 'in' && (word === 'deg' || word === 'degrees' || word === 'rad' || word === 'radians')) deg = word.startsWith('deg');
      else if (name === 'out' && word in DISTANCE_UNITS) scale = f(1 / f(DISTANCE_UNITS[word]!));
      else if (name === 'method' && (word === 'haversine' || word === 'adaptive')) haversine = word === 'haversine';
      else throw exprError(ctx.table, `geodist() option ${name}=${word} is not supported`);
    }
  }
  for (const [i, a] of args.entries()) {
    if (a.type === 'string' || a.type === 'mva') throw exprError(ctx.table, `geodist() argument ${i + 1} must be numeric or JSON field`);
    const lit = e.args[i]!;
    if (!deg && lit.kind === 'literal') {
      const v = Math.abs(toFloat(a.eval({ docId: 0n, weight: 0, attrs: new Map() })));
      if (v > (i % 2 === 0 ? Math.PI / 2 : Math.PI) + 1e-6) {
        throw exprError(ctx.table, "GEODIST() expects input coordinates in radians. Use 'in=deg' if providing degrees.");
      }
    }
  }
  const dist = haversine ? geodistHaversineDeg : geodistAdaptiveDeg;
  const [a, b, c, d] = args as [CompiledExpr, CompiledExpr, CompiledExpr, CompiledExpr];
  const toDeg = (v: number) => (deg ? v : f(v * DEG));
  return {
    type: 'float',
    eval: (r) => f(scale * dist(toDeg(toFloat(a.eval(r))), toDeg(toFloat(b.eval(r))), toDeg(toFloat(c.eval(r))), toDeg(toFloat(d.eval(r))))),
  };
}

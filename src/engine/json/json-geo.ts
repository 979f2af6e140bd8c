/**
 * `geo_distance` of a JSON query (Manticore's GeoDistInfo_c): an anchor point, the source attributes,
 * `distance_type` and `distance` ("100 km", a number of metres). It becomes the condition
 * GEODIST(anchor, source, {in=deg, out=m, method}) <= distance.
 */
import type { Condition, Expr } from '../../sql/ast.js';
import { SearchError } from '../../util/errors.js';
import { isJsonNumber, isJsonObject, type JsonValue } from './json-value.js';
import { DISTANCE_UNITS } from '../expr/geodist.js';

const geoError = (msg: string): SearchError => new SearchError('PARSE_ERROR', msg);

/** lat/lon of an object, a "lat,lon" string or a [lon, lat] array. */
function location(name: string, v: JsonValue | undefined, numeric: boolean): [JsonValue | number, JsonValue | number] {
  if (isJsonObject(v)) return [v.lat!, v.lon!];
  if (typeof v === 'string') {
    const parts = v.split(',').map((s) => s.trim());
    if (parts.length !== 2) throw geoError(`"${name}" property values should be sting with lat,lon items, got ${parts.length} items`);
    // C's atof: a leading number, else 0
    return numeric ? [Number.parseFloat(parts[0]!) || 0, Number.parseFloat(parts[1]!) || 0] : [parts[0]!, parts[1]!];
  }
  if (Array.isArray(v)) {
    if (v.length !== 2) throw geoError(`"${name}" property values should be an array with lat,lon items, got ${v.length} items`);
    return [v[1]!, v[0]!];
  }
  throw geoError(`"${name}" property value should be either an object or a string or an array`);
}

function num(v: JsonValue | number, what: string): number {
  if (typeof v === 'number') return v;
  if (isJsonNumber(v)) return Number(v.value);
  throw geoError(`"${what}" property value should be numeric`);
}

function distanceMetres(v: JsonValue | undefined): number {
  if (v === undefined) throw geoError('"distance" not specified');
  if (isJsonNumber(v)) return Number(v.value);
  if (typeof v !== 'string') throw geoError('"distance" property should be a number or a string');
  const m = /^\s*([0-9.]*)\s*([A-Za-z]*)/.exec(v)!;
  const unit = m[2] || 'm';
  const coeff = DISTANCE_UNITS[unit];
  if (coeff === undefined) throw geoError(`unknown distance unit: ${m[2]}`);
  return Math.fround(Math.fround(Number.parseFloat(m[1] || '0') || 0) * coeff);
}

const lit = (x: number): Expr => ({ kind: 'literal', value: { kind: 'float', value: x, text: String(x) }, text: String(x) });
const col = (name: string): Expr => {
  const [c, ...path] = name.toLowerCase().split('.');
  return { kind: 'column', name: c!, path, text: name };
};

/** The GEODIST() call a geo_distance object describes, and its distance bound in metres. */
export function geoDistance(v: JsonValue): { expr: Expr; distance?: number } {
  if (!isJsonObject(v)) throw geoError('"geo_distance" property value should be an object');
  if (!v.location_anchor || !v.location_source) {
    if (!v.location_anchor && !v.location_source) throw geoError('"location_anchor" and "location_source" properties missing');
    throw geoError(`"${!v.location_anchor ? 'location_anchor' : 'location_source'}" property missing`);
  }
  const [alat, alon] = location('location_anchor', v.location_anchor, true);
  const [slat, slon] = location('location_source', v.location_source, false);
  if (typeof slat !== 'string' || typeof slon !== 'string') throw geoError('"lat" property value should be string');
  const type = v.distance_type ?? 'adaptive';
  if (type !== 'adaptive' && type !== 'haversine') {
    throw new SearchError('UNSUPPORTED', `"distance_type" "${String(type)}" is not supported (adaptive or haversine)`);
  }
  const text = `GEODIST(...)`;
  const options: Expr = {
    kind: 'map', text: '{...}',
    entries: [{ name: 'in', value: { kind: 'ident', name: 'deg' } }, { name: 'out', value: { kind: 'ident', name: 'm' } },
      { name: 'method', value: { kind: 'ident', name: type } }],
  };
  const expr: Expr = { kind: 'call', name: 'geodist', args: [lit(num(alat, 'lat')), lit(num(alon, 'lon')), col(slat), col(slon), options], text };
  return { expr, distance: v.distance === undefined ? undefined : distanceMetres(v.distance) };
}

/** The geo_distance filter: GEODIST(...) <= distance. */
export function geoDistanceFilter(v: JsonValue): Condition {
  const { expr, distance } = geoDistance(v);
  if (distance === undefined) throw geoError('"distance" not specified');
  return { kind: 'compare', op: '<=', target: { expr }, value: { kind: 'float', value: distance, text: String(distance) } };
}

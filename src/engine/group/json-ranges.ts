/**
 * The `ranges` of `range` and `date_range` aggregations: bounds (from inclusive, to exclusive; only the
 * first may lack `from`, only the last `to`), the bucket key Manticore prints (`*-99`, `99-550`,
 * `2017-03-01T00:00:00-*`) and the `from`/`to` it shows (numbers as typed; dates as key_as_string).
 */
import { SearchError } from '../../util/errors.js';
import { RawJson, type JsonOut } from '../values/cell-format.js';
import { isJsonNumber, isJsonObject, type JsonValue } from '../json/json-value.js';
import { dateMath, keyAsString } from './date-buckets.js';

export interface Range { lo: number; hi: number; from?: JsonOut; to?: JsonOut; key: string }

const shapeError = (msg: string): SearchError => new SearchError('PARSE_ERROR', msg);

interface Bound { value: number; text: string; out: JsonOut }

function bound(v: JsonValue, dates: boolean, what: string): Bound {
  if (dates) {
    const seconds = typeof v === 'string' ? dateMath(v) : isJsonNumber(v) ? Number(v.value) : undefined;
    if (seconds === undefined) throw shapeError(`${what} should be a date math string or a number`);
    const text = keyAsString(seconds);
    return { value: seconds, text, out: text };
  }
  if (!isJsonNumber(v)) throw shapeError(`${what} should be numeric`);
  return { value: Number(v.value), text: v.value, out: new RawJson(v.value) };
}

export function parseRanges(v: JsonValue | undefined, field: string, dates: boolean): Range[] {
  if (!Array.isArray(v) || !v.length) throw shapeError(`"${field}" ranges should be a non-empty array`);
  return v.map((r, i) => {
    if (!isJsonObject(r)) throw shapeError(`"${field}" ranges[${i}] should be an object`);
    const extra = Object.keys(r).find((k) => k !== 'from' && k !== 'to');
    if (extra) throw new SearchError('UNSUPPORTED', `"${extra}" property of "${field}" ranges[${i}] is not supported`);
    if (r.from === undefined && i !== 0) throw shapeError(`"${field}" ranges[${i}] "from" empty`);
    if (r.to === undefined && i !== v.length - 1) throw shapeError(`"${field}" ranges[${i}] "to" empty`);
    const from = r.from === undefined ? undefined : bound(r.from, dates, `"${field}" ranges[${i}] "from"`);
    const to = r.to === undefined ? undefined : bound(r.to, dates, `"${field}" ranges[${i}] "to"`);
    return {
      lo: from?.value ?? -Infinity, hi: to?.value ?? Infinity, from: from?.out, to: to?.out,
      key: `${from?.text ?? '*'}-${to?.text ?? '*'}`,
    };
  });
}

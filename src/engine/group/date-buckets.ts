/**
 * `date_histogram` bucket keys over timestamp seconds, in UTC (Manticore's DATE_HISTOGRAM(): the start
 * of the calendar unit holding the value, or interval * floor(value / interval) for a fixed interval),
 * and the `key_as_string` form `YYYY-MM-DDTHH:MM:SS`.
 */
import { SearchError } from '../../util/errors.js';

const CALENDAR: Record<string, string> = {
  minute: 'minute', '1m': 'minute', hour: 'hour', '1h': 'hour', day: 'day', '1d': 'day', week: 'week', '1w': 'week',
  month: 'month', '1M': 'month', quarter: 'quarter', '1q': 'quarter', year: 'year', '1y': 'year',
};
const FIXED_UNIT_SECONDS: Record<string, number> = { ms: 0.001, s: 1, m: 60, h: 3600, d: 86400 };

/** The bucket start (seconds) of `calendar_interval` for a value in seconds. */
export function calendarKey(unit: string, seconds: number): number {
  const d = new Date(seconds * 1000);
  const y = d.getUTCFullYear(), mo = d.getUTCMonth(), day = d.getUTCDate(), h = d.getUTCHours(), mi = d.getUTCMinutes();
  switch (unit) {
    case 'minute': return Date.UTC(y, mo, day, h, mi) / 1000;
    case 'hour': return Date.UTC(y, mo, day, h) / 1000;
    case 'day': return Date.UTC(y, mo, day) / 1000;
    // weeks start on Monday (ISO 8601, as Elasticsearch's calendar weeks)
    case 'week': return Date.UTC(y, mo, day - ((d.getUTCDay() + 6) % 7)) / 1000;
    case 'month': return Date.UTC(y, mo, 1) / 1000;
    case 'quarter': return Date.UTC(y, mo - (mo % 3), 1) / 1000;
    default: return Date.UTC(y, 0, 1) / 1000;
  }
}

/** The key function of a `date_histogram` from its `calendar_interval` or `fixed_interval`. */
export function dateBucket(field: string, calendar: unknown, fixed: unknown): (seconds: number) => number {
  if ((calendar === undefined) === (fixed === undefined)) {
    throw new SearchError('PARSE_ERROR', `"${field}" date_histogram needs one of "calendar_interval" or "fixed_interval"`);
  }
  if (calendar !== undefined) {
    const unit = typeof calendar === 'string' ? CALENDAR[calendar] : undefined;
    if (!unit) throw new SearchError('PARSE_ERROR', `"${field}" unknown calendar_interval ${JSON.stringify(calendar)}`);
    return (s) => calendarKey(unit, s);
  }
  const m = typeof fixed === 'string' ? /^(\d*)(ms|s|m|h|d)$/.exec(fixed) : null;
  const n = m ? Number(m[1] || '1') : 0;
  const interval = m ? n * FIXED_UNIT_SECONDS[m[2]!]! : 0;
  // timestamps are whole seconds: a sub-second interval has no meaning here
  if (!m || n <= 0 || !Number.isInteger(interval)) throw new SearchError('PARSE_ERROR', `"${field}" unknown fixed_interval ${JSON.stringify(fixed)}`);
  return (s) => Math.floor(s / interval) * interval;
}

/** `2017-02-01T00:00:00`: a bucket key as `key_as_string` (UTC). */
export function keyAsString(seconds: number): string {
  return new Date(seconds * 1000).toISOString().slice(0, 19);
}

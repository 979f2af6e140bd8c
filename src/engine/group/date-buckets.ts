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

const FORMATTERS = new Map<string, Intl.DateTimeFormat>();

/** A formatter of an IANA zone's wall-clock fields; an unknown zone is an error in Manticore's words. */
function zoneFormatter(tz: string): Intl.DateTimeFormat {
  let f = FORMATTERS.get(tz);
  if (!f) {
    if (tz.startsWith('+') || tz.startsWith('-')) throw new SearchError('PARSE_ERROR', `date_histogram time_zone [${tz}] must be an IANA time zone name`);
    try {
      f = new Intl.DateTimeFormat('en-US', {
        timeZone: tz, hourCycle: 'h23', year: 'numeric', month: '2-digit', day: '2-digit', hour: '2-digit', minute: '2-digit', second: '2-digit',
      });
    } catch {
      throw new SearchError('PARSE_ERROR', `unknown time zone '${tz}'`);
    }
    FORMATTERS.set(tz, f);
  }
  return f;
}

/** The zone's wall-clock time at `seconds` UTC, as seconds of a UTC calendar. */
function wallClock(seconds: number, tz: string): number {
  const parts: Record<string, number> = {};
  for (const p of zoneFormatter(tz).formatToParts(new Date(seconds * 1000))) if (p.type !== 'literal') parts[p.type] = Number(p.value);
  return Date.UTC(parts.year!, parts.month! - 1, parts.day!, parts.hour!, parts.minute!, parts.second!) / 1000;
}

/** The bucket start of a calendar unit in a time zone: rounded on the zone's wall clock, back to UTC. */
function calendarKeyIn(unit: string, seconds: number, tz: string): number {
  const local = calendarKey(unit, wallClock(seconds, tz));
  const guess = local - (wallClock(seconds, tz) - seconds);
  return local - (wallClock(guess, tz) - guess);
}

/** `3h`, `-90m`, `+1d` or a number of seconds: a date_histogram `offset` in seconds. */
export function offsetSeconds(field: string, v: unknown): number {
  if (typeof v === 'number' && Number.isInteger(v)) return v;
  const m = typeof v === 'string' ? /^([+-]?)(\d*)(ms|s|m|h|d)$/.exec(v) : null;
  if (!m || (typeof v === 'string' && m[2] === '')) {
    if (typeof v === 'string') throw new SearchError('PARSE_ERROR', `unknown interval [${v}]`);
    throw new SearchError('PARSE_ERROR', `"${field}" offset should be string or integer`);
  }
  const n = Number(m[2]) * FIXED_UNIT_SECONDS[m[3]!]!;
  return m[1] === '-' ? -n : n;
}

/** Calendar options of a date_histogram: IANA `time_zone` and a fixed `offset` in seconds. */
export interface CalendarOptions { timeZone?: string; offset?: number }

/** The key function of a `date_histogram` from its `calendar_interval` or `fixed_interval`. */
export function dateBucket(field: string, calendar: unknown, fixed: unknown, opts: CalendarOptions = {}): (seconds: number) => number {
  if ((calendar === undefined) === (fixed === undefined)) {
    throw new SearchError('PARSE_ERROR', `"${field}" date_histogram needs one of "calendar_interval" or "fixed_interval"`);
  }
  if (calendar !== undefined) {
    const unit = typeof calendar === 'string' ? CALENDAR[calendar] : undefined;
    if (!unit) throw new SearchError('PARSE_ERROR', `"${field}" unknown calendar_interval ${JSON.stringify(calendar)}`);
    const { timeZone: tz, offset = 0 } = opts;
    if (tz) zoneFormatter(tz);
    // Manticore's AggrDateHistExpr_T: shift by the offset, round (in the zone), shift back
    return tz ? (s) => calendarKeyIn(unit, s - offset, tz) + offset : (s) => calendarKey(unit, s - offset) + offset;
  }
  if (opts.timeZone !== undefined || opts.offset !== undefined) {
    throw new SearchError('PARSE_ERROR', `"${field}" time_zone and offset are only supported with calendar_interval`);
  }
  const m = typeof fixed === 'string' ? /^(\d*)(ms|s|m|h|d)$/.exec(fixed) : null;
  const n = m ? Number(m[1] || '1') : 0;
  const interval = m ? n * FIXED_UNIT_SECONDS[m[2]!]! : 0;
  // timestamps are whole seconds: a sub-second interval has no meaning here
  if (!m || n <= 0 || !Number.isInteger(interval)) throw new SearchError('PARSE_ERROR', `"${field}" unknown fixed_interval ${JSON.stringify(fixed)}`);
  return (s) => Math.floor(s / interval) * interval;
}

/** `2017-02-01T00:00:00`: a bucket key as `key_as_string` (UTC, or the wall clock of `tz`). */
export function keyAsString(seconds: number, tz?: string): string {
  return new Date((tz ? wallClock(seconds, tz) : seconds) * 1000).toISOString().slice(0, 19);
}



/** Rounds seconds down to the start of a date-math unit (UTC; weeks from Monday). */
function roundDown(seconds: number, unit: string): number {
  if (unit === 's') return Math.floor(seconds);
  const name = ({ y: 'year', M: 'month', w: 'week', d: 'day', h: 'hour', H: 'hour', m: 'minute' } as Record<string, string>)[unit]!;
  return calendarKey(name, seconds);
}

function addUnits(seconds: number, n: number, unit: string): number {
  const d = new Date(seconds * 1000);
  if (unit === 'y') d.setUTCFullYear(d.getUTCFullYear() + n);
  else if (unit === 'M') d.setUTCMonth(d.getUTCMonth() + n);
  else return seconds + n * ({ w: 604800, d: 86400, h: 3600, H: 3600, m: 60, s: 1 } as Record<string, number>)[unit]!;
  return d.getTime() / 1000;
}

/**
 * Manticore's date math (`now-1d/d`, `2017||+2M/M`, `2017-03-01`): a base (`now`, or a date before
 * `||`) then `+N unit`, `-N unit` and `/unit` (round down) steps, in UTC; seconds.
 */
export function dateMath(text: string, now = Date.now() / 1000): number {
  const m = /^(now|([^|]+)\|\||(\d{4}(?:-\d{2}(?:-\d{2}(?:[T ]\d{2}:\d{2}(?::\d{2})?)?)?)?))(.*)$/.exec(text.trim());
  if (!m) throw new SearchError('PARSE_ERROR', `unable to parse date math '${text}'`);
  const base = m[1] === 'now' ? Math.floor(now) : parseDate(m[2] ?? m[3]!, text);
  let at = base;
  const ops = m[4]!;
  const re = /([+-])(\d+)([yMwdhHms])|\/([yMwdhHms])/y;
  let i = 0;
  while (i < ops.length) {
    re.lastIndex = i;
    const op = re.exec(ops);
    if (!op) throw new SearchError('PARSE_ERROR', `unable to parse date math '${text}'`);
    if (op[4]) at = roundDown(at, op[4]);
    else at = addUnits(at, (op[1] === '-' ? -1 : 1) * Number(op[2]), op[3]!);
    i = re.lastIndex;
  }

  return at;
}

function parseDate(s: string, text: string): number {
  const m = /^(\d{4})(?:-(\d{2})(?:-(\d{2})(?:[T ](\d{2}):(\d{2})(?::(\d{2}))?)?)?)?$/.exec(s.trim());
  if (!m) throw new SearchError('PARSE_ERROR', `unable to parse date math '${text}'`);
  const [, y, mo, d, h, mi, sec] = m;
  return Date.UTC(Number(y), Number(mo ?? 1) - 1, Number(d ?? 1), Number(h ?? 0), Number(mi ?? 0), Number(sec ?? 0)) / 1000;
}

/**
 * Date parts of a timestamp (seconds since the epoch) for DAY(), MONTH(), ... and DATE_FORMAT().
 * Computed in UTC: quarry's server runs in UTC (see README's compatibility table; Manticore uses the
 * server's local time zone).
 */
import { SearchError } from '../../util/errors.js';

const DAYS = ['Sunday', 'Monday', 'Tuesday', 'Wednesday', 'Thursday', 'Friday', 'Saturday'];
const MONTHS = ['January', 'February', 'March', 'April', 'May', 'June', 'July', 'August', 'September',
  'October', 'November', 'December'];

function utc(ts: number): Date {
  return new Date(ts * 1000);
}

export type DatePart = 'day' | 'month' | 'year' | 'yearmonth' | 'yearmonthday' | 'yearweek' | 'hour' | 'minute' |
  'second' | 'dayofweek' | 'dayofyear' | 'quarter';

function dayOfYear(d: Date): number {
  return Math.floor((d.getTime() - Date.UTC(d.getUTCFullYear(), 0, 1)) / 86400000) + 1;
}

const isLeap = (y: number): boolean => (y % 4 === 0 && y % 100 !== 0) || y % 400 === 0;

/** YEARWEEK(): year*1000 + the day of the year of the week's Sunday, in the previous year when the
 * week began there (Manticore's CalcYearWeek: 2023-08-01 gives 2023211, Sunday 30 July). */
function yearWeek(d: Date): number {
  let sunday = dayOfYear(d) - d.getUTCDay();
  let year = d.getUTCFullYear();
  if (sunday <= 0) {
    year--;
    sunday += isLeap(year) ? 366 : 365;
  }
  return year * 1000 + sunday;
}

export function datePart(part: DatePart, ts: number): number {
  const d = utc(ts);
  const y = d.getUTCFullYear();
  const m = d.getUTCMonth() + 1;
  switch (part) {
    case 'day': return d.getUTCDate();
    case 'month': return m;
    case 'year': return y;
    case 'yearmonth': return y * 100 + m;
    case 'yearmonthday': return y * 10000 + m * 100 + d.getUTCDate();
    case 'yearweek': return yearWeek(d);
    case 'hour': return d.getUTCHours();
    case 'minute': return d.getUTCMinutes();
    case 'second': return d.getUTCSeconds();
    case 'dayofweek': return d.getUTCDay() + 1; // MySQL's: 1 = Sunday
    case 'dayofyear': return dayOfYear(d);
    case 'quarter': return Math.floor((m - 1) / 3) + 1;
  }
}

const pad = (n: number, w = 2): string => String(n).padStart(w, '0');

/** ISO 8601 week number and week-based year (weeks start on Monday; week 1 holds the year's first Thursday). */
function isoWeek(d: Date): { week: number; year: number } {
  const t = new Date(Date.UTC(d.getUTCFullYear(), d.getUTCMonth(), d.getUTCDate()));
  t.setUTCDate(t.getUTCDate() + 3 - ((t.getUTCDay() + 6) % 7)); // the Thursday of this week
  const year = t.getUTCFullYear();
  return { week: 1 + Math.floor((t.getTime() - Date.UTC(year, 0, 4)) / 604_800_000 + ((new Date(Date.UTC(year, 0, 4)).getUTCDay() + 6) % 7) / 7), year };
}

/** One strftime conversion (the ones Manticore's manual lists for DATE_FORMAT, which calls strftime). */
function conversion(ch: string, d: Date): string {
  const h = d.getUTCHours();
  switch (ch) {
    case 'Y': return String(d.getUTCFullYear());
    case 'y': return pad(d.getUTCFullYear() % 100);
    case 'm': return pad(d.getUTCMonth() + 1);
    case 'd': return pad(d.getUTCDate());
    case 'e': return String(d.getUTCDate()).padStart(2, ' ');
    case 'H': return pad(h);
    case 'I': return pad(h % 12 === 0 ? 12 : h % 12);
    case 'M': return pad(d.getUTCMinutes());
    case 'S': return pad(d.getUTCSeconds());
    case 'p': return h < 12 ? 'AM' : 'PM';
    case 'j': return pad(dayOfYear(d), 3);
    case 'a': return DAYS[d.getUTCDay()]!.slice(0, 3);
    case 'A': return DAYS[d.getUTCDay()]!;
    case 'b': case 'h': return MONTHS[d.getUTCMonth()]!.slice(0, 3);
    case 'B': return MONTHS[d.getUTCMonth()]!;
    case 'u': return String(d.getUTCDay() === 0 ? 7 : d.getUTCDay());
    case 'w': return String(d.getUTCDay());
    case 'D': return `${conversion('m', d)}/${conversion('d', d)}/${conversion('y', d)}`;
    case 'F': return `${conversion('Y', d)}-${conversion('m', d)}-${conversion('d', d)}`;
    case 'T': return `${conversion('H', d)}:${conversion('M', d)}:${conversion('S', d)}`;
    case 'R': return `${conversion('H', d)}:${conversion('M', d)}`;
    case 's': return String(Math.floor(d.getTime() / 1000));
    case 'n': return '\n';
    case 't': return '\t';
    case '%': return '%';
    case 'C': return pad(Math.floor(d.getUTCFullYear() / 100));
    case 'k': return String(h).padStart(2, ' ');
    case 'l': return String(h % 12 === 0 ? 12 : h % 12).padStart(2, ' ');
    case 'P': return h < 12 ? 'am' : 'pm';
    case 'r': return `${conversion('I', d)}:${conversion('M', d)}:${conversion('S', d)} ${conversion('p', d)}`;
    // the C locale's %c, %x, %X (Manticore's searchd runs strftime in it)
    case 'c': return `${conversion('a', d)} ${conversion('b', d)} ${conversion('e', d)} ${conversion('T', d)} ${conversion('Y', d)}`;
    case 'x': return conversion('D', d);
    case 'X': return conversion('T', d);
    case 'z': return '+0000';
    case 'Z': return 'UTC';
    case 'U': return pad(Math.floor((dayOfYear(d) - 1 + 7 - d.getUTCDay()) / 7));
    case 'W': return pad(Math.floor((dayOfYear(d) - 1 + 7 - ((d.getUTCDay() + 6) % 7)) / 7));
    case 'V': return pad(isoWeek(d).week);
    case 'G': return String(isoWeek(d).year);
    case 'g': return pad(isoWeek(d).year % 100);
  }
  throw new SearchError('UNSUPPORTED', `DATE_FORMAT() conversion '%${ch}' is not supported`);
}

/** Checks a DATE_FORMAT pattern up front, so an unsupported conversion fails before any row. */
export function checkDateFormat(fmt: string): void {
  dateFormat(0, fmt);
}

export function dateFormat(ts: number, fmt: string): string {
  const d = utc(ts);
  let out = '';
  for (let i = 0; i < fmt.length; i++) {
    const ch = fmt[i]!;
    if (ch !== '%' || i + 1 >= fmt.length) { out += ch; continue; }
    out += conversion(fmt[++i]!, d);
  }
  return out;
}

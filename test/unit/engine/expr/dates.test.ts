// DATE_FORMAT() conversions against GNU date's strftime output (TZ=UTC LC_ALL=C date -d @T +FMT), the
// C-locale strftime Manticore's DATE_FORMAT calls.
import { describe, expect, it } from 'vitest';
import { dateFormat } from '../../../../src/engine/expr/dates.js';

const FMT = '%C %k %l %P %r|%c|%x %X %z %Z|%U %W %V %G %g|%Y-%m-%d %H:%M:%S %j %a %b %u %w';
/** Expected strings printed by GNU date for FMT. */
const GNU_DATE: [number, string][] = [
  [0, '19  0 12 am 12:00:00 AM|Thu Jan  1 00:00:00 1970|01/01/70 00:00:00 +0000 UTC|00 00 01 1970 70|1970-01-01 00:00:00 001 Thu Jan 4 4'],
  [1700000000, '20 22 10 pm 10:13:20 PM|Tue Nov 14 22:13:20 2023|11/14/23 22:13:20 +0000 UTC|46 46 46 2023 23|2023-11-14 22:13:20 318 Tue Nov 2 2'],
  [1735603200, '20  0 12 am 12:00:00 AM|Tue Dec 31 00:00:00 2024|12/31/24 00:00:00 +0000 UTC|52 53 01 2025 25|2024-12-31 00:00:00 366 Tue Dec 2 2'],
  [1609459200, '20  0 12 am 12:00:00 AM|Fri Jan  1 00:00:00 2021|01/01/21 00:00:00 +0000 UTC|00 00 53 2020 20|2021-01-01 00:00:00 001 Fri Jan 5 5'],
  [1262217600, '20  0 12 am 12:00:00 AM|Thu Dec 31 00:00:00 2009|12/31/09 00:00:00 +0000 UTC|52 52 53 2009 09|2009-12-31 00:00:00 365 Thu Dec 4 4'],
];

describe('DATE_FORMAT conversions', () => {
  it.each(GNU_DATE)('%i formats as strftime does', (ts, want) => {
    expect(dateFormat(ts, FMT)).toBe(want);
  });

  it('names a conversion strftime does not have', () => {
    expect(() => dateFormat(0, '%Q')).toThrow("DATE_FORMAT() conversion '%Q' is not supported");
  });
});

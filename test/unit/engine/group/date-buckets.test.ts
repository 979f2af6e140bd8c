// date_histogram keys: calendar units in UTC (weeks from Monday), fixed intervals, interval errors.
import { describe, expect, it } from 'vitest';
import { calendarKey, dateBucket, dateMath, keyAsString } from '../../../../src/engine/group/date-buckets.js';

const at = (iso: string): number => Date.parse(`${iso}Z`) / 1000;

describe('date_histogram keys', () => {
  it('calendar units start at the unit holding the value', () => {
    const v = at('2017-05-10T12:34:56'); // a Wednesday
    expect(keyAsString(calendarKey('minute', v))).toBe('2017-05-10T12:34:00');
    expect(keyAsString(calendarKey('hour', v))).toBe('2017-05-10T12:00:00');
    expect(keyAsString(calendarKey('day', v))).toBe('2017-05-10T00:00:00');
    expect(keyAsString(calendarKey('week', v))).toBe('2017-05-08T00:00:00');
    expect(keyAsString(calendarKey('week', at('2017-05-07T23:00:00')))).toBe('2017-05-01T00:00:00');
    expect(keyAsString(calendarKey('month', v))).toBe('2017-05-01T00:00:00');
    expect(keyAsString(calendarKey('quarter', v))).toBe('2017-04-01T00:00:00');
    expect(keyAsString(calendarKey('year', v))).toBe('2017-01-01T00:00:00');
  });

  it('names and short forms; fixed intervals with units; one of the two required', () => {
    expect(dateBucket('tm', '1M', undefined)(at('2017-05-10T00:00:00'))).toBe(at('2017-05-01T00:00:00'));
    expect(dateBucket('tm', undefined, '12h')(at('2017-05-10T13:00:00'))).toBe(at('2017-05-10T12:00:00'));
    expect(dateBucket('tm', undefined, '2000ms')(7)).toBe(6);
    expect(() => dateBucket('tm', '2d', undefined)).toThrow('calendar_interval');
    expect(() => dateBucket('tm', undefined, '1500ms')).toThrow('fixed_interval');
    expect(() => dateBucket('tm', undefined, undefined)).toThrow('one of');
    expect(() => dateBucket('tm', 'day', '1d')).toThrow('one of');
  });

  it('date math: now or a date, +/- units, /unit rounding', () => {
    const now = at('2017-05-10T12:34:56');
    expect(keyAsString(dateMath('now', now))).toBe('2017-05-10T12:34:56');
    expect(keyAsString(dateMath('now-1d/d', now))).toBe('2017-05-09T00:00:00');
    expect(keyAsString(dateMath('now+2h/h', now))).toBe('2017-05-10T14:00:00');
    expect(keyAsString(dateMath('2017||+2M/M'))).toBe('2017-03-01T00:00:00');
    expect(keyAsString(dateMath('2017-03-15||-1y'))).toBe('2016-03-15T00:00:00');
    expect(keyAsString(dateMath('2017-03-15T10:20'))).toBe('2017-03-15T10:20:00');
    expect(() => dateMath('now+1x')).toThrow('date math');
  });
});

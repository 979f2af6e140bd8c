// date_histogram keys: calendar units in UTC (weeks from Monday), fixed intervals, interval errors.
import { describe, expect, it } from 'vitest';
import { calendarKey, dateBucket, keyAsString } from '../../../../src/engine/group/date-buckets.js';

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
});

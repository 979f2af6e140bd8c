// A stored JSON attribute read as searchd reads it: int64 integers exact, past int64 a double.
import { describe, expect, it } from 'vitest';
import { parseStoredJson, storedJsonText } from '../../../../src/engine/json/stored-json.js';
import { useTempEngine } from '../../../helpers/temp-engine.js';

const t = useTempEngine('quarry-stored-json-');

describe('parseStoredJson', () => {
  it('keeps integers past 2^53 within int64 exact and turns ones past int64 into doubles', () => {
    const v = parseStoredJson('{"m":9007199254740993,"n":-9223372036854775808,"x":9223372036854775807,"k":18446744073709551615,"f":1.5,"s":"1234567890123456789"}');
    expect(v).toEqual({ m: 9007199254740993n, n: -9223372036854775808n, x: 9223372036854775807n, k: 18446744073709551615, f: 1.5, s: '1234567890123456789' });
    expect(storedJsonText(v)).toBe('{"m":9007199254740993,"n":-9223372036854775808,"x":9223372036854775807,"k":18446744073709552000,"f":1.5,"s":"1234567890123456789"}');
  });
});

describe('SELECT of a JSON path', () => {
  it('shows an int64 past 2^53 as stored, inside objects and arrays too', async () => {
    await t.exec('CREATE TABLE j (title text, meta json)');
    await t.exec(`INSERT INTO j (id, title, meta) VALUES (1, 'a', '{"m":9007199254740993,"n":-9223372036854775807,"o":{"p":[1,9007199254740995]}}')`);
    expect(await t.rows('SELECT meta.m, meta.n, meta.o FROM j')).toEqual([['9007199254740993', '-9223372036854775807', '{"p":[1,9007199254740995]}']]);
  });
});

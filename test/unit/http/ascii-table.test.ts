import { describe, expect, it } from 'vitest';
import { affectedSummary, displayWidth, renderAsciiTable, rowsSummary } from '../../../src/http/ascii-table.js';

describe('displayWidth', () => {
  it('counts code points, not bytes or UTF-16 units', () => {
    expect(displayWidth('example')).toBe(7);
    expect(displayWidth('тест')).toBe(4);
    expect(displayWidth('café')).toBe(4);
    expect(displayWidth('😀')).toBe(1);
  });

  it('counts CJK ideographs, kana and hangul as two columns', () => {
    expect(displayWidth('日本語')).toBe(6);
    expect(displayWidth('カナ')).toBe(4);
    expect(displayWidth('한국')).toBe(4);
    expect(displayWidth('a日b')).toBe(4);
  });
});

describe('renderAsciiTable', () => {
  it('prints the grid Manticore shows, cells left-aligned', () => {
    const table = renderAsciiTable(['id', 'value', 'value_attr'], [['1', 'example', 'example']]);
    expect(table).toBe(
      '+----+---------+------------+\n' +
        '| id | value   | value_attr |\n' +
        '+----+---------+------------+\n' +
        '| 1  | example | example    |\n' +
        '+----+---------+------------+\n',
    );
  });

  it('sizes columns by display width with multi-byte text', () => {
    const table = renderAsciiTable(['w'], [['тест'], ['日本'], ['ab']]);
    expect(table.split('\n')).toEqual(['+------+', '| w    |', '+------+', '| тест |', '| 日本 |', '| ab   |', '+------+', '']);
  });

  it('splits a cell with newlines over several lines', () => {
    const table = renderAsciiTable(['id', 'f'], [['2', 'value 2\nvalue 3'], ['1', 'value 1']]);
    expect(table.split('\n').slice(3, 6)).toEqual(['| 2  | value 2 |', '|    | value 3 |', '| 1  | value 1 |']);
  });

  it('prints nothing for no rows', () => {
    expect(renderAsciiTable(['id'], [])).toBe('');
  });
});

describe('summaries', () => {
  it('words the row count as the mysql client does', () => {
    expect(rowsSummary(0, 0.0004)).toBe('Empty set (0.000 sec)');
    expect(rowsSummary(1, 0.0016)).toBe('1 row in set (0.002 sec)');
    expect(rowsSummary(3, 1.5)).toBe('3 rows in set (1.500 sec)');
    expect(affectedSummary(1, 0)).toBe('Query OK, 1 row affected (0.000 sec)');
    expect(affectedSummary(0, 0)).toBe('Query OK, 0 rows affected (0.000 sec)');
  });
});

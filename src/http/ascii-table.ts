/** The `/cli` ASCII table: a mysql-client-like grid with left-aligned cells, as Manticore Buddy prints it. */

// Buddy counts these scripts as two columns wide (terminals draw them double width).
const WIDE = /[\p{Script=Han}\p{Script=Katakana}\p{Script=Hiragana}\p{Script=Hangul}]/gu;

/** Columns a line takes on a terminal: one per code point, two for CJK ideographs and kana/hangul. */
export function displayWidth(line: string): number {
  let width = 0;
  for (const _ of line) width++;
  const wide = line.match(WIDE);
  return width + (wide ? wide.length : 0);
}

function pad(text: string, width: number): string {
  return text + ' '.repeat(Math.max(0, width - displayWidth(text)));
}

/** A cell may hold newlines: each line of it becomes its own table line. */
function cellLines(cell: string): string[] {
  return cell.split('\n');
}

function columnWidths(header: string[], rows: string[][]): number[] {
  return header.map((name, i) => {
    let width = 0;
    for (const cell of [name, ...rows.map((r) => r[i] ?? '')]) {
      for (const line of cellLines(cell)) width = Math.max(width, displayWidth(line));
    }
    return width;
  });
}

function renderRow(cells: string[], widths: number[]): string[] {
  const split = widths.map((_, i) => cellLines(cells[i] ?? ''));
  const height = Math.max(1, ...split.map((l) => l.length));
  const lines: string[] = [];
  for (let h = 0; h < height; h++) {
    lines.push(`|${widths.map((w, i) => ` ${pad(split[i]![h] ?? '', w)} |`).join('')}`);
  }
  return lines;
}

/**
 * The grid for a header and rows of display strings, every line ending in "\n". An empty row list
 * gives '' (the client prints "Empty set" instead of a table).
 */
export function renderAsciiTable(header: string[], rows: string[][]): string {
  if (rows.length === 0) return '';
  const widths = columnWidths(header, rows);
  const border = `+${widths.map((w) => `${'-'.repeat(w + 2)}+`).join('')}`;
  const lines = [border, ...renderRow(header, widths), border];
  for (const row of rows) lines.push(...renderRow(row, widths));
  lines.push(border);
  return `${lines.join('\n')}\n`;
}

/** The line after a result: "Empty set", "1 row in set", "N rows in set" with the time in seconds. */
export function rowsSummary(count: number, seconds: number): string {
  const time = `(${seconds.toFixed(3)} sec)`;
  if (count === 0) return `Empty set ${time}`;
  return `${count} ${count === 1 ? 'row' : 'rows'} in set ${time}`;
}

/** The line after a statement without a result set: "Query OK, N rows affected (x sec)". */
export function affectedSummary(count: number, seconds: number): string {
  return `Query OK, ${count} ${count === 1 ? 'row' : 'rows'} affected (${seconds.toFixed(3)} sec)`;
}

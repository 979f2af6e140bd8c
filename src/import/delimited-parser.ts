/**
 * Incremental CSV / TSV reader. CSV follows RFC 4180: fields separated by commas, a field in double
 * quotes may hold commas, line breaks and `""` for a quote; a quote inside an unquoted field is kept
 * as text (as Python's csv and most writers do). TSV has no quoting: tab between fields, one record
 * per line. CRLF and LF both end a record; a record reports the line it starts on.
 */

export type DelimitedRecord =
  | { line: number; values: string[] }
  | { line: number; error: string };

/** The index of `what` in `text` from `from`, or text's length when it is not there. */
function indexOrEnd(text: string, what: string, from: number): number {
  const at = text.indexOf(what, from);
  return at < 0 ? text.length : at;
}

const enum State { FieldStart, Unquoted, Quoted, QuoteInQuoted, SkipLine }

export class DelimitedParser {
  readonly #sep: string;
  readonly #quoting: boolean;
  #state = State.FieldStart;
  #field = '';
  #row: string[] = [];
  /** Line the character being read is on (1-based) and line the open record started on. */
  #line = 1;
  #rowLine = 1;
  #error = '';
  #out: DelimitedRecord[] = [];

  /** `delimiter`: CSV's separator (csvpipe_delimiter; default comma); TSV's is always a tab. */
  constructor(format: 'csv' | 'tsv', delimiter = ',') {
    this.#sep = format === 'csv' ? delimiter : '\t';
    this.#quoting = format === 'csv';
  }

  /** Parses `text` (any piece of the input) and returns the records it completed. */
  feed(text: string): DelimitedRecord[] {
    const sep = this.#sep;
    // the next separator and line break at or after the read position (indexOf, a native scan: this
    // loop sees every character of an import); each is searched again only once passed
    let nextSep = -1;
    let nextLine = -1;
    for (let i = 0; i < text.length; i++) {
      const ch = text[i]!;
      switch (this.#state) {
        case State.SkipLine:
          if (ch === '\n') this.#endLine();
          break;
        case State.Quoted:
          if (ch === '"') this.#state = State.QuoteInQuoted;
          else {
            if (ch === '\n') this.#line++;
            this.#field += ch;
          }
          break;
        case State.QuoteInQuoted:
          if (ch === '"') { this.#field += '"'; this.#state = State.Quoted; }
          else if (ch === sep) this.#endField();
          else if (ch === '\n') this.#endRecord();
          else if (ch !== '\r') this.#fail(`unexpected '${ch}' after a closing quote`);
          break;
        default: { // FieldStart, Unquoted: scan to the next separator or line end in one slice
          if (ch === '"' && this.#quoting && this.#state === State.FieldStart) { this.#state = State.Quoted; break; }
          if (nextSep < i) nextSep = indexOrEnd(text, sep, i);
          if (nextLine < i) nextLine = indexOrEnd(text, '\n', i);
          const j = Math.min(nextSep, nextLine);
          this.#field += text.slice(i, j);
          this.#state = State.Unquoted;
          if (j === text.length) { i = j; break; }
          if (text[j] === sep) this.#endField();
          else this.#endRecord();
          i = j;
        }
      }
    }
    const out = this.#out;
    this.#out = [];
    return out;
  }

  /** The input ended: completes the last record (one without a final line break). */
  end(): DelimitedRecord[] {
    if (this.#state === State.Quoted) {
      this.#out.push({ line: this.#rowLine, error: 'unterminated quoted field at the end of the input' });
    } else if (this.#state !== State.SkipLine && (this.#row.length > 0 || this.#field !== '' || this.#state !== State.FieldStart)) {
      this.#endRecord();
    }
    const out = this.#out;
    this.#out = [];
    return out;
  }

  #endField(): void {
    this.#row.push(this.#field);
    this.#field = '';
    this.#state = State.FieldStart;
  }

  #endRecord(): void {
    let last = this.#field;
    if (last.endsWith('\r') && this.#state === State.Unquoted) last = last.slice(0, -1);
    this.#row.push(last);
    // an empty line is no record
    if (!(this.#row.length === 1 && this.#row[0] === '' && this.#state !== State.QuoteInQuoted)) {
      this.#out.push({ line: this.#rowLine, values: this.#row });
    }
    this.#row = [];
    this.#field = '';
    this.#endLine();
  }

  /** A malformed record: reported once, the rest of its line skipped. */
  #fail(message: string): void {
    this.#error = message;
    this.#out.push({ line: this.#rowLine, error: this.#error });
    this.#row = [];
    this.#field = '';
    this.#state = State.SkipLine;
  }

  #endLine(): void {
    this.#line++;
    this.#rowLine = this.#line;
    this.#state = State.FieldStart;
  }
}

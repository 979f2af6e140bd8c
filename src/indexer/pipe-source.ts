/**
 * tsvpipe and csvpipe sources: `sh -c <command>`, its output parsed as it streams (one record per
 * line; csvpipe with RFC 4180 quoting and csvpipe_delimiter). Columns are positional: the id, then
 * the declared fields and attributes in config order. With `<prefix>_header = 1` the first line names
 * the columns instead and they are matched by name.
 */
import { spawn } from 'node:child_process';
import { StringDecoder } from 'node:string_decoder';
import { lastValue, type ConfigSection } from '../server/config-parser.js';
import { DelimitedParser, type DelimitedRecord } from '../import/delimited-parser.js';
import { declaredColumns, type SourceColumn } from './source-schema.js';
import type { RowSource, SourceEvent, SourceRow } from './source.js';

/** How much of the command's stderr an error message quotes. */
const STDERR_TAIL = 500;

export class CommandError extends Error {}

/** Runs `command` under sh; yields its stdout in chunks, then fails if it exited non-zero. */
export async function* commandOutput(command: string, counter: { bytes: number }): AsyncGenerator<Buffer> {
  const child = spawn('sh', ['-c', command], { stdio: ['ignore', 'pipe', 'pipe'] });
  let stderr = '';
  child.stderr.on('data', (c: Buffer) => { stderr = (stderr + c.toString()).slice(-STDERR_TAIL); });
  const exited = new Promise<number | null>((res) => child.on('close', (code) => res(code)));
  const spawnError = new Promise<never>((_, rej) => child.on('error', rej));
  spawnError.catch(() => {});
  try {
    for await (const chunk of child.stdout as AsyncIterable<Buffer>) {
      counter.bytes += chunk.length;
      yield chunk;
    }
    const code = await Promise.race([exited, spawnError]);
    if (code !== 0) throw new CommandError(`command '${command}' exited with code ${code}${stderr ? `: ${stderr.trim()}` : ''}`);
  } finally {
    if (child.exitCode === null) child.kill('SIGTERM');
  }
}

export class PipeSource implements RowSource {
  readonly #counter = { bytes: 0 };
  readonly #columns: SourceColumn[];
  readonly #command: string;
  readonly #format: 'csv' | 'tsv';
  readonly #delimiter: string;
  readonly #header: boolean;

  constructor(section: ConfigSection, type: 'tsvpipe' | 'csvpipe') {
    const command = lastValue(section, `${type}_command`);
    if (!command) throw new Error(`${type} source needs ${type}_command`);
    this.#command = command;
    this.#columns = declaredColumns(section, type);
    this.#format = type === 'csvpipe' ? 'csv' : 'tsv';
    this.#delimiter = lastValue(section, 'csvpipe_delimiter') ?? ',';
    if (this.#delimiter.length !== 1) throw new Error(`csvpipe_delimiter must be one character, got '${this.#delimiter}'`);
    this.#header = lastValue(section, `${type}_header`) === '1';
  }

  bytesRead(): number {
    return this.#counter.bytes;
  }

  async *events(): AsyncGenerator<SourceEvent> {
    yield { kind: 'schema', columns: this.#columns };
    const parser = new DelimitedParser(this.#format, this.#delimiter);
    const decoder = new StringDecoder('utf8');
    let order: number[] | undefined | 'pending' = this.#header ? 'pending' : undefined;
    /** Rows and bad records in line order. */
    const convert = (recs: DelimitedRecord[]): SourceEvent[] => {
      let rows: SourceRow[] = [];
      const out: SourceEvent[] = [];
      const bad = (line: number, error: string) => {
        if (rows.length) out.push({ kind: 'rows', rows });
        rows = [];
        out.push({ kind: 'bad', line, error });
      };
      const width = this.#columns.length + 1;
      for (const r of recs) {
        if ('error' in r) bad(r.line, r.error);
        else if (order === 'pending') order = this.#headerOrder(r.values);
        else if (r.values.length !== width) bad(r.line, `${r.values.length} columns where the source declares ${width} (the id and ${this.#columns.length})`);
        else rows.push({ line: r.line, values: order ? order.map((i) => r.values[i]!) : r.values });
      }
      if (rows.length) out.push({ kind: 'rows', rows });
      return out;
    };
    for await (const chunk of commandOutput(this.#command, this.#counter)) yield* convert(parser.feed(decoder.write(chunk)));
    yield* convert([...parser.feed(decoder.end()), ...parser.end()]);
  }

  /** The header's position of the id and of each declared column. */
  #headerOrder(names: string[]): number[] {
    const pos = new Map(names.map((n, i) => [n.trim().toLowerCase(), i]));
    return ['id', ...this.#columns.map((c) => c.name)].map((n, i) => {
      const at = pos.get(n) ?? (i === 0 ? 0 : undefined);
      if (at === undefined) throw new Error(`the header line has no column '${n}'`);
      return at;
    });
  }
}

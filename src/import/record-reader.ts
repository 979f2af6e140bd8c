/**
 * Decoded input -> records with the line each starts on: JSON Lines (one object per line, blank lines
 * skipped) or CSV/TSV rows (delimited-parser.ts). A record that cannot be read carries its error.
 */
import { parse as losslessParse } from 'lossless-json';
import { isAscii } from 'node:buffer';
import { StringDecoder } from 'node:string_decoder';
import type { JsonObject } from '../engine/json/json-value.js';
import { isJsonObject } from '../engine/json/json-value.js';
import { DelimitedParser } from './delimited-parser.js';

export type ImportFormat = 'jsonl' | 'csv' | 'tsv';

export type InputRecord =
  | { line: number; values: string[] }
  | { line: number; object: JsonObject }
  | { line: number; error: string };

/** The format a file name says (`.jsonl`, `.ndjson`, `.json`, `.csv`, `.tsv`, any of them `.gz`). */
export function formatOfName(name: string): ImportFormat | undefined {
  const m = /\.(jsonl|ndjson|json|csv|tsv|tab)(\.gz)?$/i.exec(name);
  if (!m) return undefined;
  const ext = m[1]!.toLowerCase();
  return ext === 'csv' ? 'csv' : ext === 'tsv' || ext === 'tab' ? 'tsv' : 'jsonl';
}

/** One JSON Lines line as a record (a document must be a JSON object). */
export function jsonLineRecord(text: string, line: number): InputRecord | undefined {
  const t = text.endsWith('\r') ? text.slice(0, -1) : text;
  if (t.trim() === '') return undefined;
  try {
    const v = losslessParse(t) as unknown;
    if (!isJsonObject(v)) return { line, error: 'a line must hold one JSON object' };
    return { line, object: v };
  } catch (e) {
    // the parser recurses: nesting past the stack throws RangeError 'Maximum call stack size exceeded'
    if (e instanceof RangeError) return { line, error: 'invalid JSON: nested too deeply to parse' };
    return { line, error: `invalid JSON: ${(e as Error).message}` };
  }
}

async function* jsonLines(chunks: AsyncIterable<Buffer>): AsyncGenerator<InputRecord[]> {
  const decoder = new StringDecoder('utf8');
  let rest = '';
  let line = 0;
  const take = (text: string, final: boolean): InputRecord[] => {
    const parts = (rest + text).split('\n');
    rest = final ? '' : parts.pop()!;
    const out: InputRecord[] = [];
    for (const p of parts) {
      const r = jsonLineRecord(p, ++line);
      if (r) out.push(r);
    }
    return out;
  };
  for await (const chunk of chunks) yield take(decoder.write(chunk), false);
  yield take(decoder.end(), true);
}

/**
 * UTF-8 chunks decoded in order, as one StringDecoder would: a chunk of ASCII bytes alone (isAscii, a
 * vector scan) is its own Latin-1 text, copied byte for byte, where UTF-8 decoding checked every byte
 * again (~40 of the main thread's ~1,150 ms over a gcide import, for ~8). Not while the decoder holds the
 * start of a character split at the end of the chunk before (its last byte was not ASCII).
 */
export class ChunkDecoder {
  readonly #decoder = new StringDecoder('utf8');
  #carry = false;

  write(chunk: Buffer): string {
    if (!this.#carry && isAscii(chunk)) return chunk.toString('latin1');
    this.#carry = chunk.length > 0 && chunk[chunk.length - 1]! >= 0x80;
    return this.#decoder.write(chunk);
  }

  end(): string {
    return this.#decoder.end();
  }
}

async function* delimited(chunks: AsyncIterable<Buffer>, format: 'csv' | 'tsv'): AsyncGenerator<InputRecord[]> {
  const decoder = new ChunkDecoder();
  const parser = new DelimitedParser(format);
  for await (const chunk of chunks) yield parser.feed(decoder.write(chunk));
  yield [...parser.feed(decoder.end()), ...parser.end()];
}

/** The records of the input, a chunk's worth at a time. */
export function readRecords(chunks: AsyncIterable<Buffer>, format: ImportFormat): AsyncGenerator<InputRecord[]> {
  return format === 'jsonl' ? jsonLines(chunks) : delimited(chunks, format);
}

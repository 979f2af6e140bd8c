/**
 * The bridge to the core's field scanner (assembly/text/scan.ts): writes a field's UTF-16 units into
 * core memory, calls scanField once, and mirrors the core's token-id cache as strings (one per
 * distinct folded token). A core instance of its own, so text work never moves segment memory.
 */
import type { CharsetTable } from '../text/charset-table.js';
import { SCAN_RECORD_WORDS, type CoreStems, type FieldScan, type FieldsScan, type ScannedStream, type StreamRequest, type StreamScanner } from '../text/field-scanner.js';
import { Core } from './core.js';
import { SnippetStreams } from './snippet-scan.js';

interface ScanExports {
  scanReset(): void;
  scanCount(): number;
  scanKeyOffsets(): number;
  scanKeyLengths(): number;
  scanArena(): number;
  scanField(table: number, text: number, len: number, minWordLen: number, out: number, skipFirst: number): number;
  scanFields(table: number, text: number, lens: number, fields: number, minWordLen: number, out: number, counts: number): number;
  stemIds(from: number, to: number, minLen: number, out: number, tails: number): number;
}

/** Units of a stem's tail the core may write for one word (assembly/text/stem-en.ts MAX_STEM_UNITS). */
const MAX_STEM_UNITS = 64;

const SCAN_FULL = -2;
/** Longer fields take the TS tokenizer (the scratch would outgrow what a field needs). */
const MAX_FIELD_UNITS = 1 << 24;

/** One core instance, its token-id cache and scratch, shared by every scanner of the process. */
class ScanCore {
  private readonly core = new Core();
  private readonly x = this.core.exports as unknown as ScanExports;
  private readonly tables = new WeakMap<Uint32Array, number>();
  private textPtr = 0;
  private textCap = 0;
  private outPtr = 0;
  private outCap = 0;
  readonly texts: string[] = [];

  /** `generation`: the first id generation (a replaced instance's next), so no cached id outlives its core. */
  constructor(public generation = 0) {
    this.x.scanReset();
  }

  /** The table's BMP entries in core memory (placed once per table). */
  tableAddr(table: CharsetTable): number {
    let p = this.tables.get(table.bmp);
    if (p === undefined) {
      p = this.core.place(new Uint8Array(table.bmp.buffer, table.bmp.byteOffset, table.bmp.byteLength));
      this.tables.set(table.bmp, p);
    }
    return p;
  }

  /**
   * The field's token records. The answer is one object, rewritten by the next scan: its records view
   * runs from the scratch to the end of core memory (count says how many are this field's), so a
   * field costs no view and no object (a view per field was a tenth of an import's allocations).
   */
  scan(tableAddr: number, text: string, minWordLen: number): FieldScan | null {
    const n = this.scanRecords(tableAddr, text, minWordLen, 0);
    if (n < 0) return null;
    const out = this.lastScan;
    const buf = this.core.buffer;
    if (out.records.buffer !== buf || out.records.byteOffset !== this.outPtr) out.records = viewToEnd(Int32Array, buf, this.outPtr);
    out.count = n;
    out.generation = this.generation;
    return out;
  }

  private readonly lastScan: FieldScan = { count: 0, records: new Int32Array(0), texts: this.texts, generation: 0 };

  /**
   * Fields one after another in `text` (`lengths`), scanned by one call (a bulk load's build), or null
   * when too long. Scratch of its own: a field scanned alone meanwhile (one the core does not take)
   * leaves these records be, though it may move memory (the views are then stale: scan again).
   */
  scanMany(tableAddr: number, text: string, lengths: Uint32Array, minWordLen: number): FieldsScan | null {
    const len = text.length;
    const fields = lengths.length;
    if (len > MAX_FIELD_UNITS) return null;
    const m = this.many;
    if (len > m.textCap) {
      this.core.free(m.textPtr);
      m.textCap = Math.max(len, 1 << 16);
      m.textPtr = this.core.alloc(m.textCap * 2);
    }
    if ((len >> 1) + fields > m.outCap) {
      this.core.free(m.outPtr);
      m.outCap = Math.max((len >> 1) + fields, 1 << 15);
      m.outPtr = this.core.alloc(m.outCap * SCAN_RECORD_WORDS * 4);
    }
    if (fields > m.fieldCap) {
      this.core.free(m.lensPtr);
      this.core.free(m.countsPtr);
      m.fieldCap = Math.max(fields, 1024);
      m.lensPtr = this.core.alloc(m.fieldCap * 4);
      m.countsPtr = this.core.alloc(m.fieldCap * 4);
    }
    this.copyText(text, m.textPtr);
    new Uint32Array(this.core.buffer, m.lensPtr, fields).set(lengths);
    let n = this.x.scanFields(tableAddr, m.textPtr, m.lensPtr, fields, minWordLen, m.outPtr, m.countsPtr);
    if (n === SCAN_FULL) {
      this.reset();
      n = this.x.scanFields(tableAddr, m.textPtr, m.lensPtr, fields, minWordLen, m.outPtr, m.countsPtr);
    }
    if (n < 0) return null;
    this.mirror();
    const buf = this.core.buffer;
    return { records: new Int32Array(buf, m.outPtr, n * SCAN_RECORD_WORDS), counts: new Int32Array(buf, m.countsPtr, fields), texts: this.texts, generation: this.generation };
  }

  /**
   * stem_en of the ids [from, to) of this generation, stemmed by the core (assembly/text/stem-en.ts
   * stemIds): views valid until the next call.
   */
  stemIds(from: number, to: number, minLen: number): CoreStems {
    const n = to - from;
    const st = this.stems;
    if (n > st.cap) {
      this.core.free(st.outPtr);
      this.core.free(st.tailsPtr);
      st.cap = Math.max(n, 1024);
      st.outPtr = this.core.alloc(st.cap * 4);
      st.tailsPtr = this.core.alloc(st.cap * MAX_STEM_UNITS * 2);
    }
    const tails = this.x.stemIds(from, to, minLen, st.outPtr, st.tailsPtr);
    const buf = this.core.buffer;
    return { stems: new Int32Array(buf, st.outPtr, n), tails: new Uint16Array(buf, st.tailsPtr, tails) };
  }

  private readonly stems = { outPtr: 0, tailsPtr: 0, cap: 0 };

  private readonly many = { textPtr: 0, textCap: 0, outPtr: 0, outCap: 0, lensPtr: 0, countsPtr: 0, fieldCap: 0 };

  /** The field's highlight stream (scanned, then streamed by the core), or null as scan(). */
  stream(tableAddr: number, text: string, minWordLen: number, req: StreamRequest): ScannedStream | null {
    const n = this.scanRecords(tableAddr, text, minWordLen, req.skipFirst ?? 0);
    if (n < 0) return null;
    this.streams ??= new SnippetStreams(this.core);
    return this.streams.stream(this.textPtr, text.length, this.outPtr, n, this.texts, this.generation, req);
  }

  private streams: SnippetStreams | null = null;

  /**
   * Scans `text` into the record scratch and mirrors new ids: the record count, or -1 (not taken).
   * `skipFirst`: letters (bit i: a + i) whose tokens get no id (-1), as StreamRequest.skipFirst.
   */
  private scanRecords(tableAddr: number, text: string, minWordLen: number, skipFirst: number): number {
    const len = text.length;
    if (len > MAX_FIELD_UNITS) return -1;
    this.reserve(len);
    this.copyText(text, this.textPtr);
    let n = this.x.scanField(tableAddr, this.textPtr, len, minWordLen, this.outPtr, skipFirst);
    if (n === SCAN_FULL) {
      this.reset();
      n = this.x.scanField(tableAddr, this.textPtr, len, minWordLen, this.outPtr, skipFirst);
    }
    if (n < 0) return -1;
    this.mirror();
    return n;
  }

  /** A Node Buffer over core memory (re-made when the memory grows), for its native UTF-16 write. */
  private nodeView: { buffer: ArrayBuffer; view: NodeBuffer } | null = null;

  /**
   * The field's UTF-16 units into the text scratch: Buffer's native write where Node provides it
   * (a charCodeAt loop was a tenth of the scan's cost), else the loop (a page).
   */
  private copyText(text: string, at: number): void {
    const buf = this.core.buffer;
    if (NodeBufferClass) {
      if (this.nodeView?.buffer !== buf) this.nodeView = { buffer: buf, view: NodeBufferClass.from(buf) };
      this.nodeView.view.write(text, at, text.length * 2, 'utf16le');
      return;
    }
    const u16 = new Uint16Array(buf, at, text.length);
    for (let i = 0; i < text.length; i++) u16[i] = text.charCodeAt(i);
  }

  private reserve(len: number): void {
    if (len > this.textCap) {
      this.core.free(this.textPtr);
      this.textCap = Math.max(len, 4096);
      this.textPtr = this.core.alloc(this.textCap * 2);
    }
    const records = (len >> 1) + 1;
    if (records > this.outCap) {
      this.core.free(this.outPtr);
      this.outCap = Math.max(records, 2048);
      this.outPtr = this.core.alloc(this.outCap * SCAN_RECORD_WORDS * 4);
    }
  }

  reset(): void {
    this.x.scanReset();
    this.texts.length = 0;
    this.generation++;
  }

  /**
   * Strings for the ids the last scan added. Their keys lie one after another in the arena: one
   * decode of the whole run, then a slice per id (String.fromCharCode per id cost ~0.8 us each).
   */
  private mirror(): void {
    const count = this.x.scanCount();
    const from = this.texts.length;
    if (count === from) return;
    const buf = this.core.buffer;
    const offs = (this.offs = reuseView(this.offs, buf, this.x.scanKeyOffsets()));
    const lens = (this.lens = reuseView(this.lens, buf, this.x.scanKeyLengths()));
    const base = offs[from];
    const end = offs[count - 1] + lens[count - 1];
    const run = utf16.decode(new Uint16Array(buf, this.x.scanArena() + base * 2, end - base));
    for (let id = from; id < count; id++) this.texts.push(run.slice(offs[id] - base, offs[id] - base + lens[id]));
  }

  /** Views of the key offsets and lengths, kept while the core's arrays stay where they are. */
  private offs: Uint32Array = new Uint32Array(0);
  private lens: Uint32Array = new Uint32Array(0);
}

/** A view from byte `at` to the end of `buf` (the core's arrays are 4-byte aligned). */
function viewToEnd<T extends Int32Array | Uint32Array>(Kind: { new(b: ArrayBuffer, at: number, n: number): T }, buf: ArrayBuffer, at: number): T {
  return new Kind(buf, at, (buf.byteLength - at) >>> 2);
}

/** `view` when it still starts at `at` in `buf`, else a new view there to the end of the memory. */
function reuseView(view: Uint32Array, buf: ArrayBuffer, at: number): Uint32Array {
  return view.buffer === buf && view.byteOffset === at ? view : viewToEnd(Uint32Array, buf, at);
}

/** What the text copy uses of Node's Buffer (absent in a page). */
interface NodeBuffer { write(s: string, offset: number, length: number, encoding: 'utf16le'): number }
const NodeBufferClass = (globalThis as { Buffer?: { from(b: ArrayBuffer): NodeBuffer } }).Buffer ?? null;

/** Keys are UTF-16 units as folded (the core never stores a lone surrogate); a leading U+FEFF is a character. */
const utf16 = new TextDecoder('utf-16le', { ignoreBOM: true });

let shared: ScanCore | null = null;

/** Empties the shared token-id cache: ids are renumbered (a new generation), as when it fills up. */
export function resetCoreFieldScanners(): void {
  shared?.reset();
}

/**
 * Drops the shared instance, its memory with it (a wasm memory never shrinks: after a load the cache and
 * scratch hold ~18 MiB resident at 100k gcide documents); the next scan starts a fresh one, in a new id
 * generation. For an idle server.
 */
export function releaseCoreFieldScanners(): void {
  if (!shared) return;
  nextGeneration = shared.generation + 1;
  shared = null;
}

let nextGeneration = 0;

/** The factory the host installs with setFieldScannerFactory. Scanners use whichever instance is current. */
export const coreFieldScanners = (table: CharsetTable, minWordLen: number): StreamScanner => {
  const min = Math.max(1, minWordLen);
  return {
    scan: (text) => {
      const sc = (shared ??= new ScanCore(nextGeneration));
      return sc.scan(sc.tableAddr(table), text, min);
    },
    scanFields: (text, lengths) => {
      const sc = (shared ??= new ScanCore(nextGeneration));
      return sc.scanMany(sc.tableAddr(table), text, lengths, min);
    },
    stream: (text, req) => {
      const sc = (shared ??= new ScanCore(nextGeneration));
      return sc.stream(sc.tableAddr(table), text, min, req);
    },
    stemEnIds: (from, to, generation, minLen) => {
      const sc = shared;
      return sc && sc.generation === generation && to <= sc.texts.length ? sc.stemIds(from, to, minLen) : null;
    },
  };
};

/**
 * xmlpipe2 sources: `sh -c <xmlpipe_command>`, its XML read as it streams. The schema is the stream's
 * `<sphinx:schema>` (`<sphinx:field name= [attr="string"]>`, `<sphinx:attr name= type= [bits=]>`)
 * or, without one, the config's xmlpipe_field / xmlpipe_attr_* declarations. Each
 * `<sphinx:document id="N">` holds one element per field or attribute; `<sphinx:killlist>` lists
 * `<id>`s to remove from the tables the table section names in killlist_target.
 */
import { StringDecoder } from 'node:string_decoder';
import { lastValue, type ConfigSection } from '../server/config-parser.js';
import { commandOutput } from './pipe-source.js';
import { declaredColumns, type SourceColumn, type SourceColumnType } from './source-schema.js';
import type { RowSource, SourceEvent, SourceRow } from './source.js';
import { XmlError, XmlTokenizer, type XmlEvent } from './xml-stream.js';

/** `<sphinx:attr type=...>` -> column type (xmlpipe2's `int` is a 32-bit unsigned attribute). */
const XML_ATTR_TYPES: Record<string, SourceColumnType> = {
  int: 'uint', uint: 'uint', timestamp: 'timestamp', bool: 'bool', float: 'float', bigint: 'bigint',
  string: 'string', json: 'json', multi: 'multi', multi_64: 'multi_64',
};

/** Rows per event (the loader batches them again). */
const ROWS_PER_EVENT = 1000;

/** A document being read; `open` the elements open inside it, innermost last. */
interface OpenDoc { line: number; id: string; values: Map<string, string>; current?: string; open: string[]; error?: string }

export class XmlpipeSource implements RowSource {
  readonly #counter = { bytes: 0 };
  readonly #command: string;
  readonly #configColumns: SourceColumn[];

  constructor(section: ConfigSection) {
    const command = lastValue(section, 'xmlpipe_command');
    if (!command) throw new Error('xmlpipe2 source needs xmlpipe_command');
    this.#command = command;
    this.#configColumns = declaredColumns(section, 'xmlpipe');
  }

  bytesRead(): number {
    return this.#counter.bytes;
  }

  async *events(): AsyncGenerator<SourceEvent> {
    const tokenizer = new XmlTokenizer();
    const decoder = new StringDecoder('utf8');
    const reader = new DocsetReader(this.#configColumns);
    for await (const chunk of commandOutput(this.#command, this.#counter)) yield* reader.take(tokenizer.feed(decoder.write(chunk)));
    yield* reader.take(tokenizer.feed(decoder.end(), true));
    yield* reader.end();
  }
}

/** The xmlpipe2 structure over tokenizer events. */
class DocsetReader {
  #columns?: SourceColumn[];
  #inSchema = false;
  #schemaColumns: SourceColumn[] = [];
  #defaults = new Map<string, string>(); // <sphinx:attr default=...> by column name
  #doc?: OpenDoc;
  #killlist?: { ids: string[]; text?: string };
  #rows: SourceRow[] = [];
  #docset: 'none' | 'open' | 'closed' = 'none';
  #docsetLine = 0;

  constructor(private readonly configColumns: SourceColumn[]) {}

  *take(events: XmlEvent[]): Generator<SourceEvent> {
    for (const e of events) {
      if (e.kind === 'open') yield* this.#open(e);
      else if (e.kind === 'close') yield* this.#close(e.name);
      else if (this.#doc?.current) this.#doc.values.set(this.#doc.current, (this.#doc.values.get(this.#doc.current) ?? '') + e.text);
      else if (this.#killlist?.text !== undefined) this.#killlist.text += e.text;
    }
    if (this.#rows.length >= ROWS_PER_EVENT) yield this.#flush();
  }

  /**
   * The stream's end. One that stops inside a document or before `</sphinx:docset>` (a command cut
   * short that still exits 0, `head` of a file) was read as if whole; expat, Sphinx's reader, refuses
   * it ("no element found"), so the build fails as for a tag cut in the middle.
   */
  *end(): Generator<SourceEvent> {
    if (this.#doc) throw new XmlError(`unexpected end of the stream inside document id=${this.#doc.id}`, this.#doc.line);
    if (this.#docset === 'open') throw new XmlError('unexpected end of the stream before </sphinx:docset>', this.#docsetLine);
    if (!this.#columns) yield this.#schema(this.configColumns);
    if (this.#rows.length) yield this.#flush();
  }

  #flush(): SourceEvent {
    const rows = this.#rows;
    this.#rows = [];
    return { kind: 'rows', rows };
  }

  #schema(columns: SourceColumn[]): SourceEvent {
    this.#columns = columns;
    return { kind: 'schema', columns };
  }

  *#open(e: Extract<XmlEvent, { kind: 'open' }>): Generator<SourceEvent> {
    const doc = this.#doc;
    if (doc) {
      if (doc.open.push(e.name) === 1) {
        const name = e.name.toLowerCase();
        if (!this.#columns!.some((c) => c.name === name)) doc.error ??= `unknown field or attribute '${e.name}'`;
        doc.current = name;
      }
      return;
    }
    switch (e.name) {
      case 'sphinx:docset': this.#docset = 'open'; this.#docsetLine = e.line; return;
      case 'sphinx:schema': this.#inSchema = true; return;
      case 'sphinx:field':
        if (this.#inSchema) this.#schemaColumns.push({ name: (e.attrs.name ?? '').toLowerCase(), type: e.attrs.attr === 'string' ? 'field_string' : 'field' });
        return;
      case 'sphinx:attr': {
        if (!this.#inSchema) return;
        const type = XML_ATTR_TYPES[(e.attrs.type ?? '').toLowerCase()];
        if (!type) { yield { kind: 'bad', line: e.line, error: `unknown attribute type '${e.attrs.type}' of '${e.attrs.name}'` }; return; }
        const col: SourceColumn = { name: (e.attrs.name ?? '').toLowerCase(), type };
        if (type === 'uint' && e.attrs.bits) col.bits = Number(e.attrs.bits);
        // Sphinx's xmlpipe2: default= is the value of a document that leaves this element out
        if (e.attrs.default !== undefined) this.#defaults.set(col.name, e.attrs.default);
        this.#schemaColumns.push(col);
        return;
      }
      case 'sphinx:document':
        if (!this.#columns) yield this.#schema(this.configColumns);
        this.#doc = { line: e.line, id: e.attrs.id ?? '', values: new Map(), open: [] };
        return;
      case 'sphinx:killlist': this.#killlist = { ids: [] }; return;
      case 'id': if (this.#killlist) this.#killlist.text = ''; return;
    }
  }

  *#close(name: string): Generator<SourceEvent> {
    const doc = this.#doc;
    // a close tag that is not the innermost open one's is not well-formed XML, which Sphinx's expat
    // refuses ("mismatched tag"): the document is a bad one, never read with the values guessed
    const innermost = doc && (doc.open[doc.open.length - 1] ?? 'sphinx:document');
    if (doc && innermost !== name) doc.error ??= `mismatched tag: </${name}> closes <${innermost}>`;
    if (doc && name !== 'sphinx:document') {
      doc.open.pop();
      if (doc.open.length === 0) doc.current = undefined;
      return;
    }
    if (name === 'sphinx:docset') this.#docset = 'closed';
    else if (name === 'sphinx:schema') {
      this.#inSchema = false;
      yield this.#schema(this.#schemaColumns);
    } else if (name === 'sphinx:document' && doc) {
      this.#doc = undefined;
      const error = !/^\d+$/.test(doc.id) ? `document id '${doc.id}' is not a positive integer` : doc.error;
      if (error) {
        if (this.#rows.length) yield this.#flush(); // events stay in line order
        yield { kind: 'bad', line: doc.line, error };
      } else this.#rows.push({ line: doc.line, values: [doc.id, ...this.#columns!.map((c) => (doc.values.get(c.name) ?? this.#defaults.get(c.name))?.trim() ?? '')] });
    } else if (name === 'id' && this.#killlist?.text !== undefined) {
      this.#killlist.ids.push(this.#killlist.text.trim());
      this.#killlist.text = undefined;
    } else if (name === 'sphinx:killlist' && this.#killlist) {
      if (this.#rows.length) yield this.#flush();
      yield { kind: 'killlist', ids: this.#killlist.ids };
      this.#killlist = undefined;
    }
  }
}

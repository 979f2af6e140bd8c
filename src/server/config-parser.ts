/**
 * Manticore's config file format: `searchd { key = value }`, named `table NAME { ... }` / `index`
 * / `source` sections with `: parent` inheritance, `#` comments, `\#` literal hashes and `\`
 * line continuations. Values are kept as raw strings; a key given twice keeps both (rt_field, listen).
 */
import { SearchError } from '../util/errors.js';

/** One section's keys, each with its values in order of appearance. */
export type ConfigSection = Map<string, string[]>;

export interface ManticoreConfig {
  /** Sections without a name: `searchd`, `indexer`, `common` (empty map when absent). */
  searchd: ConfigSection;
  indexer: ConfigSection;
  common: ConfigSection;
  /** `table NAME {}` and `index NAME {}` (the same section type), by name as written. */
  tables: Map<string, ConfigSection>;
  sources: Map<string, ConfigSection>;
}

const PLAIN_SECTIONS = new Set(['searchd', 'indexer', 'common']);
const NAMED_SECTIONS = new Map([['index', 'index'], ['table', 'index'], ['source', 'source']]);

/** Manticore's identifier characters for section types, names and keys. */
const IDENT = /[A-Za-z0-9_-]/;

/** Cursor over the config text that knows its line and column for error messages. */
class Reader {
  pos = 0;
  constructor(readonly text: string, readonly fileName: string) {}

  get done(): boolean {
    return this.pos >= this.text.length;
  }

  peek(): string {
    return this.text[this.pos] ?? '';
  }

  fail(message: string): never {
    const before = this.text.slice(0, this.pos);
    const line = before.split('\n').length;
    const col = this.pos - before.lastIndexOf('\n');
    throw new SearchError('BAD_SETTING', `ERROR: ${message} in ${this.fileName} line ${line} col ${col}.`);
  }

  /** Skips white space and `#` comments. */
  skipBlank(): void {
    while (!this.done) {
      const ch = this.peek();
      if (/\s/.test(ch)) this.pos++;
      else if (ch === '#') this.skipLine();
      else return;
    }
  }

  skipLine(): void {
    const nl = this.text.indexOf('\n', this.pos);
    this.pos = nl < 0 ? this.text.length : nl + 1;
  }

  ident(what: string): string {
    const start = this.pos;
    while (!this.done && IDENT.test(this.peek())) this.pos++;
    if (this.pos === start) this.fail(what);
    return this.text.slice(start, this.pos);
  }

  expect(ch: string): void {
    this.skipBlank();
    if (this.peek() !== ch) this.fail(`expected '${ch}', got '${this.peek()}'`);
    this.pos++;
  }
}

/** A value: to the end of the line or a `#`; `\` at a line end continues it on the next line. */
function readValue(r: Reader): string {
  let value = '';
  while (!r.done) {
    const ch = r.peek();
    if (ch === '\n' || ch === '#') break;
    if (ch === '\\') {
      const next = r.text[r.pos + 1];
      if (next === '\n' || (next === '\r' && r.text[r.pos + 2] === '\n')) {
        r.skipLine();
        continue;
      }
      if (next === '#') {
        value += '#';
        r.pos += 2;
        continue;
      }
    }
    value += ch;
    r.pos++;
  }
  if (r.peek() === '#') r.skipLine();
  return value.trim();
}

function addValue(section: ConfigSection, inherited: Set<string>, key: string, value: string): void {
  const values = section.get(key);
  // A child's first value of a key replaces what it inherited; later ones add to the list.
  if (!values || inherited.delete(key)) section.set(key, [value]);
  else values.push(value);
}

function readBody(r: Reader, section: ConfigSection, inherited: Set<string>): void {
  r.expect('{');
  for (;;) {
    r.skipBlank();
    if (r.done) r.fail("expected '}'");
    if (r.peek() === '}') {
      r.pos++;
      return;
    }
    if (!IDENT.test(r.peek())) r.fail(`section contents: expected token, got '${r.peek()}'`);
    const key = r.ident('expected key').toLowerCase();
    r.expect('=');
    addValue(section, inherited, key, readValue(r));
  }
}

function emptyConfig(): ManticoreConfig {
  return { searchd: new Map(), indexer: new Map(), common: new Map(), tables: new Map(), sources: new Map() };
}

function readNamedSection(r: Reader, type: string, groups: Map<string, ConfigSection>): void {
  r.skipBlank();
  const name = r.ident(`named section: expected name, got '${r.peek()}'`);
  if (groups.has(name)) r.fail(`section '${name}' (type='${type}') already exists`);
  let section: ConfigSection = new Map();
  const inherited = new Set<string>();
  r.skipBlank();
  if (r.peek() === ':') {
    r.pos++;
    r.skipBlank();
    const parentName = r.ident(`named section: expected parent name, got '${r.peek()}'`);
    const parent = groups.get(parentName);
    if (!parent) {
      r.fail(`inherited section '${name}': parent doesn't exist (parent name='${parentName}', type='${type}')`);
    }
    section = new Map([...parent].map(([k, v]) => [k, [...v]]));
    for (const k of section.keys()) inherited.add(k);
  }
  groups.set(name, section);
  readBody(r, section, inherited);
}

/** Parses config text; errors read like Manticore's: `ERROR: <what> in <file> line N col M.` */
export function parseConfig(text: string, fileName = 'config'): ManticoreConfig {
  const config = emptyConfig();
  const r: Reader = new Reader(text.replace(/\r\n/g, '\n'), fileName);
  const seenPlain = new Set<string>();
  for (;;) {
    r.skipBlank();
    if (r.done) return config;
    if (!IDENT.test(r.peek())) r.fail('invalid token');
    const type = r.ident('invalid token').toLowerCase();
    if (PLAIN_SECTIONS.has(type)) {
      if (seenPlain.has(type)) r.fail(`section '${type}' (type='${type}') already exists`);
      seenPlain.add(type);
      readBody(r, config[type as 'searchd' | 'indexer' | 'common'], new Set());
      continue;
    }
    const named = NAMED_SECTIONS.get(type);
    if (!named) r.fail(`invalid section type '${type}'`);
    readNamedSection(r, named, named === 'index' ? config.tables : config.sources);
  }
}

/** The last value of a key (a setting given twice takes the later one), or undefined. */
export function lastValue(section: ConfigSection | undefined, key: string): string | undefined {
  const values = section?.get(key.toLowerCase());
  return values?.[values.length - 1];
}

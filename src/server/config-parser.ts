/**
 * Manticore's config file format: `searchd { key = value }`, named `table NAME { ... }` / `index`
 * / `source` sections with `: parent` inheritance, `#` comments, `\#` literal hashes and `\`
 * line continuations. Values are kept as raw strings; a key given twice keeps both (rt_field, listen).
 */
import { readFile } from 'node:fs/promises';
import { SearchError } from '../util/errors.js';

/** One value of a key, with its position in the section (attributes are ordered across keys). */
export interface ConfigEntry {
  key: string;
  value: string;
  tag: number;
}

/** One section's keys (lowercased), each with its values in order of appearance. */
export class ConfigSection {
  readonly #values = new Map<string, ConfigEntry[]>();
  /** Keys copied from a parent section: the child's first value replaces them. */
  readonly #inherited = new Set<string>();
  #nextTag = 0;

  /** A child section starting with copies of the parent's values. */
  static inheriting(parent: ConfigSection): ConfigSection {
    const child = new ConfigSection();
    for (const [key, entries] of parent.#values) {
      child.#values.set(key, entries.map((e) => ({ ...e })));
      child.#inherited.add(key);
    }
    child.#nextTag = parent.#nextTag;
    return child;
  }

  add(key: string, value: string): void {
    const entry = { key, value, tag: this.#nextTag++ };
    const values = this.#values.get(key);
    if (!values || this.#inherited.delete(key)) this.#values.set(key, [entry]);
    else values.push(entry);
  }

  /** The values of a key in order, or undefined when absent. */
  get(key: string): string[] | undefined {
    return this.#values.get(key.toLowerCase())?.map((e) => e.value);
  }

  keys(): string[] {
    return [...this.#values.keys()];
  }

  /** The entries of the given keys, in the order they appear in the file. */
  entries(keys: (key: string) => boolean): ConfigEntry[] {
    return [...this.#values.values()].flat().filter((e) => keys(e.key)).sort((a, b) => a.tag - b.tag);
  }
}

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

function readBody(r: Reader, section: ConfigSection): void {
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
    section.add(key, readValue(r));
  }
}

function emptyConfig(): ManticoreConfig {
  return {
    searchd: new ConfigSection(),
    indexer: new ConfigSection(),
    common: new ConfigSection(),
    tables: new Map(),
    sources: new Map(),
  };
}

function readNamedSection(r: Reader, type: string, groups: Map<string, ConfigSection>): void {
  r.skipBlank();
  const name = r.ident(`named section: expected name, got '${r.peek()}'`);
  if (groups.has(name)) r.fail(`section '${name}' (type='${type}') already exists`);
  let section = new ConfigSection();
  r.skipBlank();
  if (r.peek() === ':') {
    r.pos++;
    r.skipBlank();
    const parentName = r.ident(`named section: expected parent name, got '${r.peek()}'`);
    const parent = groups.get(parentName);
    if (!parent) {
      r.fail(`inherited section '${name}': parent doesn't exist (parent name='${parentName}', type='${type}')`);
    }
    section = ConfigSection.inheriting(parent);
  }
  groups.set(name, section);
  readBody(r, section);
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
      readBody(r, config[type as 'searchd' | 'indexer' | 'common']);
      continue;
    }
    const named = NAMED_SECTIONS.get(type);
    if (!named) r.fail(`invalid section type '${type}'`);
    readNamedSection(r, named, named === 'index' ? config.tables : config.sources);
  }
}

/** The last value of a key (a setting given twice takes the later one), or undefined. */
export function lastValue(section: ConfigSection | undefined, key: string): string | undefined {
  const values = section?.get(key);
  return values?.[values.length - 1];
}

/**
 * Reads and parses the config file at `path`. A file that cannot be read is named as searchd names it
 * (`failed to open config file '/etc/x.conf': No such file or directory`), not by Node's `ENOENT: ...,
 * open '/etc/x.conf'`, which `quarry serve` and `quarry indexer` printed.
 */
export async function readConfigFile(path: string): Promise<ManticoreConfig> {
  let text: string;
  try {
    text = await readFile(path, 'utf8');
  } catch (e) {
    const err = e as NodeJS.ErrnoException;
    const reason = err.code === 'ENOENT' ? 'No such file or directory' : err.code === 'EACCES' ? 'Permission denied'
      : err.code === 'EISDIR' ? 'Is a directory' : err.message;
    throw new SearchError('BAD_SETTING', `failed to open config file '${path}': ${reason}`);
  }
  return parseConfig(text, path);
}

/**
 * CALL SNIPPETS' load_files / load_files_scattered: data items are file names under the configured
 * snippets_file_prefix, read by a pool of up to max_threads_per_query worker threads. Off unless a
 * prefix is configured; a name never reaches outside it (`..`, absolute paths, symlinks, NUL).
 */
import { realpathSync } from 'node:fs';
import { isAbsolute, resolve, sep } from 'node:path';
import { Worker } from 'node:worker_threads';
import { SearchError } from '../../util/errors.js';

export interface SnippetFileConfig {
  /** searchd snippets_file_prefix: a directory; '' = loading files is off. */
  prefix: string;
  /** searchd max_threads_per_query: the most reader threads one CALL uses. */
  maxThreads: number;
}

/** Manticore's default max_threads_per_query is the core count; two keeps a small box responsive. */
export const DEFAULT_MAX_THREADS = 2;

const config: SnippetFileConfig = { prefix: '', maxThreads: DEFAULT_MAX_THREADS };

/** Set by the server from its config (searchd section). */
export function configureSnippetFiles(c: Partial<SnippetFileConfig>): void {
  if (c.prefix !== undefined) config.prefix = c.prefix;
  if (c.maxThreads !== undefined) config.maxThreads = Math.max(1, Math.trunc(c.maxThreads));
}

export function snippetFileConfig(): Readonly<SnippetFileConfig> {
  return config;
}

const escapes = (path: string, prefix: string): SearchError => new SearchError('QUERY_ERROR', `File '${path}' escapes '${prefix}' scope`);

/** The real path of `name` under the prefix; throws when it is not allowed. Missing files give null. */
export function resolveSnippetFile(name: string, prefix = config.prefix): string | null {
  if (!prefix) throw new SearchError('QUERY_ERROR', 'load_files needs snippets_file_prefix to be set in the searchd config');
  if (name === '') throw new SearchError('QUERY_ERROR', 'snippet file name is empty');
  const shown = prefix + name;
  if (name.includes('\0') || isAbsolute(name)) throw escapes(shown, prefix);
  let root: string;
  try {
    root = realpathSync(resolve(prefix));
  } catch {
    throw new SearchError('QUERY_ERROR', `snippets_file_prefix '${prefix}' is not a readable directory`);
  }
  const full = resolve(root, name);
  if (full !== root && !full.startsWith(root + sep)) throw escapes(shown, prefix);
  let real: string;
  try {
    real = realpathSync(full);
  } catch {
    return null;
  }
  if (real !== root && !real.startsWith(root + sep)) throw escapes(shown, prefix);
  return real;
}

const WORKER = `
const { parentPort } = require('node:worker_threads');
const { readFileSync } = require('node:fs');
parentPort.on('message', ({ i, path }) => {
  try { parentPort.postMessage({ i, text: readFileSync(path, 'utf8') }); }
  catch (e) { parentPort.postMessage({ i, error: String(e && e.message || e) }); }
});`;

/** Reads files with a pool of worker threads; one result (text or error) per path, in order. */
export async function readInPool(paths: string[], threads = config.maxThreads): Promise<({ text: string } | { error: string })[]> {
  const out: ({ text: string } | { error: string })[] = new Array(paths.length);
  if (!paths.length) return out;
  const n = Math.max(1, Math.min(threads, paths.length));
  let next = 0;
  const runOne = (w: Worker): Promise<void> => new Promise((done, fail) => {
    const feed = (): void => {
      if (next >= paths.length) { done(); return; }
      const i = next++;
      w.postMessage({ i, path: paths[i] });
    };
    w.on('message', (m: { i: number; text?: string; error?: string }) => {
      out[m.i] = m.error !== undefined ? { error: m.error } : { text: m.text ?? '' };
      feed();
    });
    w.on('error', fail);
    feed();
  });
  const workers = Array.from({ length: n }, () => new Worker(WORKER, { eval: true }));
  try {
    await Promise.all(workers.map(runOne));
  } finally {
    await Promise.all(workers.map((w) => w.terminate()));
  }
  return out;
}

/**
 * The texts of `names`. `needAll` (load_files): a missing file is an error; scattered only: a
 * missing file gives ''.
 */
export async function loadSnippetFiles(names: string[], needAll: boolean): Promise<string[]> {
  const paths = names.map((n) => resolveSnippetFile(n));
  const missing = paths.findIndex((p) => p === null);
  if (missing >= 0 && needAll) throw new SearchError('QUERY_ERROR', `failed to open ${config.prefix}${names[missing]}: No such file or directory`);
  const present = paths.filter((p): p is string => p !== null);
  const read = await readInPool(present);
  let k = 0;
  return paths.map((p, i) => {
    if (p === null) return '';
    const r = read[k++];
    if ('error' in r) {
      if (needAll) throw new SearchError('QUERY_ERROR', `failed to open ${config.prefix}${names[i]}: ${r.error}`);
      return '';
    }
    return r.text;
  });
}

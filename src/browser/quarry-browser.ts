/**
 * quarry in a page: `openIndex(url | bytes)` opens a table exported by `quarry export` and searches
 * it with the server's own code and WASM core (build/quarry-browser.js, one ES module beside
 * release.wasm). A folder's URL fetches the table in chunks as queries need them; a `.qimg` URL or
 * bytes is the whole image at once. No SharedArrayBuffer: runs on the main thread and in a Web
 * Worker alike.
 *
 * @example
 * import { openIndex } from './quarry-browser.js';
 * const idx = await openIndex('./');
 * const { total, hits } = await idx.search('"full text" | search', { limit: 10, highlight: { pre_tags: '<mark>', post_tags: '</mark>' } });
 */
import { CHUNK_FILES, CHUNKS_FORMAT, type ChunksManifest } from '../index/table-chunks.js';
import { decodeImage, type ImageManifest } from '../index/table-image.js';
import { setFieldScannerFactory } from '../text/field-scanner.js';
import { setTextFiles } from '../text/text-files.js';
import { setCoreSource } from '../wasm/core-module.js';
import { sharedCore } from '../wasm/core.js';
import { coreFieldScanners } from '../wasm/field-scanner.js';
import { PageIndex, type PageResult, type SearchOptions, type TableDescription } from './page-index.js';
import { ChunkedSource } from './chunked-source.js';
import { embeddedFiles } from './embedded-files.js';
import { ImageSource, type TableSource } from './table-source.js';

export type { PageHit, PageResult, SearchOptions, TableDescription } from './page-index.js';

/** The core's name beside this module (and inside an exported folder). */
export const CORE_FILE = 'release.wasm';

export interface OpenOptions {
  /** The WASM core: its URL, bytes or compiled module (default: release.wasm beside this module). */
  core?: string | URL | BufferSource | WebAssembly.Module;
}

/** An opened table. Calls are answered in order; errors reject with the server's message. */
export interface QuarryIndex {
  search(query: string, opts?: SearchOptions): Promise<PageResult>;
  describe(): TableDescription;
}

let coreReady: Promise<void> | null = null;
/** Every opened image's files (paths are absolute, as the server read them). */
const pageFiles: Record<string, string> = {};

async function fetchBytes(url: URL): Promise<ArrayBuffer> {
  const res = await fetch(url);
  if (!res.ok) throw new Error(`quarry: ${url.href}: HTTP ${res.status}`);
  return res.arrayBuffer();
}

/** Compiles the core once (asynchronously: a page's main thread may not compile large modules synchronously). */
function loadCore(core: OpenOptions['core']): Promise<void> {
  coreReady ??= (async () => {
    let mod: WebAssembly.Module;
    if (core instanceof WebAssembly.Module) mod = core;
    else if (core === undefined || typeof core === 'string' || core instanceof URL) {
      mod = await WebAssembly.compile(await fetchBytes(new URL(core ?? CORE_FILE, import.meta.url)));
    } else mod = await WebAssembly.compile(core);
    setCoreSource(() => mod);
    setFieldScannerFactory(coreFieldScanners);
  })();
  return coreReady;
}

function baseUrl(): string | undefined {
  return (globalThis as { location?: { href: string } }).location?.href;
}

/** Opens bytes as an image, a `.qimg` URL as an image, any other URL as an exported folder (chunks on demand). */
async function sourceOf(source: string | URL | ArrayBuffer | Uint8Array): Promise<TableSource> {
  if (source instanceof Uint8Array || source instanceof ArrayBuffer) {
    const image = decodeImage(source instanceof Uint8Array ? source : new Uint8Array(source));
    await ready(image.manifest);
    return new ImageSource(image, sharedCore());
  }
  const url = new URL(String(source), baseUrl());
  if (url.pathname.endsWith('.qimg')) return sourceOf(await fetchBytes(url));
  const base = url.pathname.endsWith('.json') ? new URL('./', url) : new URL(url.href.endsWith('/') ? url : `${url.href}/`);
  const get = (name: string) => fetchBytes(new URL(name, base));
  const manifest = JSON.parse(new TextDecoder().decode(await get(CHUNK_FILES.manifest))) as ChunksManifest;
  if (manifest.format !== CHUNKS_FORMAT) throw new Error(`quarry: ${base.href}${CHUNK_FILES.manifest} is not an exported table`);
  await ready(manifest);
  return ChunkedSource.open(manifest, sharedCore(), get);
}

/** The core compiled and the table's setting files installed (highlighting may read them again later). */
async function ready(manifest: ImageManifest): Promise<void> {
  await coreReady;
  Object.assign(pageFiles, manifest.files);
  setTextFiles(embeddedFiles(pageFiles));
}

export async function openIndex(source: string | URL | ArrayBuffer | Uint8Array, opts: OpenOptions = {}): Promise<QuarryIndex> {
  loadCore(opts.core).catch(() => {});
  const index = new PageIndex(await sourceOf(source));
  // one search at a time, in call order (a later one may reuse the chunks an earlier one fetched)
  let last: Promise<unknown> = Promise.resolve();
  return {
    search: (query, o) => {
      const run = last.then(() => index.search(query, o));
      last = run.catch(() => undefined);
      return run;
    },
    describe: () => index.describe(),
  };
}

/**
 * quarry in a page: `openIndex(url | bytes)` opens a table exported by `quarry export` and searches
 * it with the server's own code and WASM core (build/quarry-browser.js, one ES module beside
 * release.wasm). No SharedArrayBuffer: runs on the main thread and in a Web Worker alike.
 *
 * @example
 * import { openIndex } from './quarry-browser.js';
 * const idx = await openIndex('./');
 * const { total, hits } = await idx.search('"full text" | search', { limit: 10, highlight: { pre_tags: '<mark>', post_tags: '</mark>' } });
 */
import { decodeImage, type TableImage } from '../index/table-image.js';
import { setTextFiles } from '../text/text-files.js';
import { setCoreSource } from '../wasm/core-module.js';
import { sharedCore } from '../wasm/core.js';
import { PageIndex, type PageResult, type SearchOptions, type TableDescription } from './page-index.js';
import { embeddedFiles } from './embedded-files.js';

export type { PageHit, PageResult, SearchOptions, TableDescription } from './page-index.js';

/** The image's name inside an exported folder. */
export const IMAGE_FILE = 'table.qimg';
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
  })();
  return coreReady;
}

function baseUrl(): string | undefined {
  return (globalThis as { location?: { href: string } }).location?.href;
}

/** The image: bytes as given, or fetched from an exported folder's URL (or the image's own URL). */
async function imageOf(source: string | URL | ArrayBuffer | Uint8Array): Promise<TableImage> {
  if (source instanceof Uint8Array) return decodeImage(source);
  if (source instanceof ArrayBuffer) return decodeImage(new Uint8Array(source));
  let url = new URL(String(source), baseUrl());
  if (!url.pathname.endsWith('.qimg')) url = new URL(IMAGE_FILE, url.href.endsWith('/') ? url : `${url.href}/`);
  return decodeImage(new Uint8Array(await fetchBytes(url)));
}

export async function openIndex(source: string | URL | ArrayBuffer | Uint8Array, opts: OpenOptions = {}): Promise<QuarryIndex> {
  const [image] = await Promise.all([imageOf(source), loadCore(opts.core)]);
  // the files the table's text settings name travel in the image (highlighting may read them again later)
  Object.assign(pageFiles, image.manifest.files);
  setTextFiles(embeddedFiles(pageFiles));
  const index = new PageIndex(image, sharedCore());
  return {
    search: async (query, o) => index.search(query, o),
    describe: () => index.describe(),
  };
}

/**
 * `quarry export`: a table as a static folder a page searches with the server's code. The table's
 * segments are merged into one (as OPTIMIZE merges them) and written with its stored documents,
 * schema, text settings and the files they name into one image (src/index/table-image.ts), beside
 * the WASM core and the browser module; and the same in chunks a page fetches on demand
 * (export-chunks.ts). Any static file server can serve the folder.
 */
import { copyFileSync, mkdirSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { mergeSegments } from '../../index/segment/segment-merger.js';
import { serializeSegment } from '../../index/segment/segment-codec.js';
import { Segment } from '../../index/segment/segment.js';
import { encodeImage, pageValue, type PageDoc } from '../../index/table-image.js';
import { Store } from '../../store/index.js';
import { joinPath, PAGE_SHARE_DIR, setTextFiles, type TextFiles } from '../../text/text-files.js';
import { createTextPipeline } from '../../text/text-pipeline.js';
import { SearchError } from '../../util/errors.js';
import { Catalog } from '../catalog.js';
import { writeChunks } from './export-chunks.js';
import { installNodeHost, nodeTextFiles, packageRoot } from '../node-host.js';
import type { Table } from '../table.js';

/** Names inside an exported folder (the page module resolves the core beside itself). */
export const EXPORT_FILES = { image: 'table.qimg', core: 'release.wasm', module: 'quarry-browser.js' } as const;
const DOC_BATCH = 1000;

export interface ExportSummary { table: string; rows: number; files: Record<string, number> }

/** The text of every file the table's settings make the text pipeline read. */
function settingFiles(table: Table): Record<string, string> {
  const files: Record<string, string> = {};
  // bundled lists are recorded under the page's share folder, which has no host path
  const real = (p: string): string =>
    p.startsWith(`${PAGE_SHARE_DIR}/`) && nodeTextFiles.shareDir ? joinPath(nodeTextFiles.shareDir, p.slice(PAGE_SHARE_DIR.length)) : p;
  const recorder: TextFiles = {
    exists: (p) => nodeTextFiles.exists(real(p)),
    read: (p) => (files[p] = nodeTextFiles.read(real(p))),
    list: (d) => nodeTextFiles.list(real(d)),
    shareDir: PAGE_SHARE_DIR,
  };
  const before = setTextFiles(recorder);
  try {
    createTextPipeline(table.schema.settings);
  } finally {
    setTextFiles(before);
  }
  return files;
}

/** Stored text fields and attributes of each row, in row order (non-stored text is left out). */
function pageDocs(table: Table, seg: Segment): PageDoc[] {
  const keep = table.schema.columns.filter((c) => c.type !== 'text' || c.stored).map((c) => c.name);
  const out: PageDoc[] = [];
  for (let start = 0; start < seg.rows; start += DOC_BATCH) {
    const ids: bigint[] = [];
    for (let r = start; r < Math.min(seg.rows, start + DOC_BATCH); r++) ids.push(seg.docId(r));
    for (const doc of table.fetch(ids)) {
      const d: PageDoc = {};
      for (const name of keep) d[name] = pageValue(doc?.[name] ?? null);
      out.push(d);
    }
  }
  return out;
}

/** The image of one open table (every live row in one merged segment), and its chunks written into `outDir`. */
export function tableImage(table: Table, outDir?: string): { image: Uint8Array; chunkBytes: number } {
  const ix = table.index;
  const merged = new Segment(ix.core, ix.schema, mergeSegments(ix.schema, [...ix.segments]));
  try {
    const manifest = {
      table: table.name, columns: table.schema.columns, index: ix.schema, settings: table.schema.settings,
      files: settingFiles(table), rows: merged.rows,
    };
    const docs = pageDocs(table, merged);
    const chunkBytes = outDir ? writeChunks(outDir, manifest, merged, docs) : 0;
    return { image: encodeImage({ manifest, segment: serializeSegment(merged), docs }), chunkBytes };
  } finally {
    merged.free();
  }
}

/**
 * Writes the folder for an open table (a running server can export its own tables this way: the
 * rows are read through the table's store, the segments merged aside without touching the table).
 */
export function exportOpenTable(table: Table, outDir: string): ExportSummary {
  mkdirSync(outDir, { recursive: true });
  const { image, chunkBytes } = tableImage(table, outDir);
  writeFileSync(join(outDir, EXPORT_FILES.image), image);
  const build = join(packageRoot(), 'build');
  copyFileSync(join(build, EXPORT_FILES.core), join(outDir, EXPORT_FILES.core));
  copyFileSync(join(build, EXPORT_FILES.module), join(outDir, EXPORT_FILES.module));
  const files = Object.fromEntries(Object.values(EXPORT_FILES).map((f) => [f, statSync(join(outDir, f)).size]));
  files['chunks (table.json, dict/, blob/, docs/)'] = chunkBytes;
  return { table: table.name, rows: table.index.count(), files };
}

/**
 * Writes the folder for table `name` of the data directory `dataDir` into `outDir`. The store is
 * opened read-only, so a server may be running on the directory meanwhile.
 */
export async function exportTable(dataDir: string, name: string, outDir: string): Promise<ExportSummary> {
  installNodeHost();
  const store = Store.open(dataDir, { readOnly: true });
  try {
    const table = Catalog.open(store).get(name);
    if (!table) throw new SearchError('UNKNOWN_TABLE', `unknown table '${name}'`);
    return exportOpenTable(table, outDir);
  } finally {
    await store.close();
  }
}

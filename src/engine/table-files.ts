/**
 * The stopwords, wordforms and exceptions files of a table, copied at CREATE TABLE (and ALTER TABLE
 * that sets them), as searchd copies them into an RT table's folder (CopyExternalFiles, names
 * `<key>_chunk<N>_<i>.txt`), so the table keeps working when the original file is deleted or moved.
 *
 * The copies' text is held in the schema (`files`), in the catalog of record: a backup, a restore into
 * another directory and a rename carry them with no extra step. Every reader of a setting (the build
 * workers, snippets, export) reads files by path, so at open the copies are written out under
 * `<dataDir>/files/<table>/` and the setting names those paths (`materialize`), which SHOW CREATE TABLE
 * then shows, as searchd shows `<data_dir>/<table>/stopwords_chunk0_0.txt`. (Not `<dataDir>/<table>`
 * itself: a table named `store` or `tables` would meet the store's own entries there.)
 *
 * A table created before copies existed has no `files`: its settings name the original paths, which
 * are read where they are, as before (no migration: the file may be gone already).
 */
import { mkdirSync, readdirSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { TableSchema, TableSettings } from '../schema/types.js';
import { settingFileNames } from '../text/setting-texts.js';
import { resolveStopwordFile } from '../text/stopwords.js';
import { baseName, textFiles } from '../text/text-files.js';

/** Each file-valued setting and its inline twin, which, when set, is read in its place (nothing to copy). */
const FILE_SETTINGS: readonly (readonly [string, string])[] = [
  ['stopwords', 'stopwords_list'], ['exceptions', 'exceptions_list'], ['wordforms', 'wordforms_list'],
];

const COPY_NAME = /^(stopwords|exceptions|wordforms)_chunk(\d+)_(\d+)\.txt$/;

export function tableFilesDir(dataDir: string, table: string): string {
  return join(dataDir, 'files', table);
}

/**
 * Copies the files the `changed` settings name (all of them at CREATE TABLE, the ones an ALTER sets):
 * their text goes into `files` under searchd's names, chunk `suffix`, and the setting names the copies
 * (bare names, placed by `materialize`). Copies of a setting replaced are dropped. Call after the
 * settings were validated (the pipeline built), so every name resolves.
 */
export function copySettingFiles(schema: TableSchema, changed: readonly string[]): TableSchema {
  const files = { ...schema.files };
  const settings: TableSettings = { ...schema.settings };
  const suffix = nextChunk(files);
  for (const [key, listKey] of FILE_SETTINGS) {
    if (!changed.includes(key)) continue;
    for (const name of Object.keys(files)) if (COPY_NAME.exec(name)?.[1] === key) delete files[name];
    const value = settings[key];
    if (value === undefined || (settings[listKey] ?? '') !== '') continue;
    const names = settingFileNames(value).map((name, i) => {
      const copy = `${key}_chunk${suffix}_${i}.txt`;
      files[copy] = textFiles().read(key === 'stopwords' ? resolveStopwordFile(name) : name);
      return copy;
    });
    if (names.length > 0) settings[key] = names.join(' ');
  }
  const out: TableSchema = { ...schema, settings };
  if (Object.keys(files).length > 0) out.files = files;
  else delete out.files;
  return out;
}

/** searchd numbers an ALTER's copies after the table's chunks; here: one past the highest chunk held. */
function nextChunk(files: Record<string, string>): number {
  let next = 0;
  for (const name of Object.keys(files)) {
    const m = COPY_NAME.exec(name);
    if (m) next = Math.max(next, Number(m[2]) + 1);
  }
  return next;
}

/**
 * Writes the table's copies out under `dir` (a file already holding the same text is left alone) and
 * returns the schema whose settings name them by absolute path, whatever directory they named before
 * (the data directory a backup was taken from). A schema without copies comes back as it is.
 */
export function materialize(schema: TableSchema, dir: string): TableSchema {
  const files = schema.files;
  if (!files || Object.keys(files).length === 0) return schema;
  mkdirSync(dir, { recursive: true });
  // copies an ALTER replaced go (the catalog no longer holds them)
  for (const name of readdirSync(dir)) if (!Object.hasOwn(files, name)) rmSync(join(dir, name), { force: true });
  for (const [name, text] of Object.entries(files)) {
    const path = join(dir, name);
    if (sameText(path, text)) continue;
    const tmp = `${path}.tmp`;
    writeFileSync(tmp, text);
    renameSync(tmp, path);
  }
  const settings: TableSettings = { ...schema.settings };
  for (const [key] of FILE_SETTINGS) {
    const value = settings[key];
    if (value === undefined) continue;
    const names = settingFileNames(value);
    if (names.some((n) => Object.hasOwn(files, baseName(n)))) {
      settings[key] = names.map((n) => (Object.hasOwn(files, baseName(n)) ? join(dir, baseName(n)) : n)).join(' ');
    }
  }
  return { ...schema, settings };
}

function sameText(path: string, text: string): boolean {
  try {
    return readFileSync(path, 'utf8') === text;
  } catch {
    return false;
  }
}

/** DROP TABLE: the written-out copies go with it (the catalog's text went with its entry). */
export function removeTableFiles(dir: string): void {
  rmSync(dir, { recursive: true, force: true });
}

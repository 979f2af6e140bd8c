/**
 * File access for the text settings that name files (stopwords, wordforms, exceptions), given by the
 * host: Node's file system on the server (src/engine/node-host.ts), the copies an export carries in a
 * page (src/browser/). The text pipeline itself imports no Node built-ins, so a page runs the same code.
 */

export interface TextFiles {
  exists(path: string): boolean;
  /** The file's text (UTF-8); throws when it cannot be read. */
  read(path: string): string;
  /** Names of the entries in a directory; throws when it cannot be listed. */
  list(dir: string): string[];
  /**
   * The folder of bundled data, as Manticore's share directory: `stopwords/<code>` holds the
   * built-in stopword lists (`stopwords = 'en'`). None: only names that are files resolve.
   */
  readonly shareDir?: string;
}

/** The share folder an exported page carries its bundled lists under (export-table.ts, embedded-files.ts). */
export const PAGE_SHARE_DIR = 'quarry-share';

const NO_FILES: TextFiles = {
  exists: () => false,
  read: (path) => { throw new Error(`quarry: no file access here to read ${path}`); },
  list: (dir) => { throw new Error(`quarry: no file access here to list ${dir}`); },
};

let current: TextFiles = NO_FILES;

/** Installs the host's file access; returns the one it replaces. */
export function setTextFiles(files: TextFiles): TextFiles {
  const before = current;
  current = files;
  return before;
}

export function textFiles(): TextFiles {
  return current;
}

/** POSIX path helpers (the names settings hold are POSIX paths, as Manticore's on Linux). */
export function baseName(path: string): string {
  const s = path.replace(/\/+$/, '');
  return s.slice(s.lastIndexOf('/') + 1);
}

export function dirName(path: string): string {
  const s = path.replace(/\/+$/, '');
  const i = s.lastIndexOf('/');
  return i < 0 ? '.' : i === 0 ? '/' : s.slice(0, i);
}

export function isAbsolutePath(path: string): boolean {
  return path.startsWith('/');
}

export function joinPath(...parts: string[]): string {
  return parts.filter(Boolean).join('/').replace(/\/{2,}/g, '/');
}

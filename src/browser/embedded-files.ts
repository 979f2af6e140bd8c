/** The files a table's text settings name, as an exported image carries them: TextFiles over a map. */
import { baseName, dirName, PAGE_SHARE_DIR, type TextFiles } from '../text/text-files.js';

export function embeddedFiles(files: Record<string, string>): TextFiles {
  return {
    exists: (path) => Object.hasOwn(files, path),
    read: (path) => {
      if (!Object.hasOwn(files, path)) throw new Error(`quarry: ${path} is not in the exported table`);
      return files[path];
    },
    list: (dir) => Object.keys(files).filter((p) => dirName(p) === dir).map(baseName),
    // built-in stopword lists the export read are carried under this folder
    shareDir: PAGE_SHARE_DIR,
  };
}

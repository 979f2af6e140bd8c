/** Finds the package root at run time, so files beside src/ (build/, web/) resolve from src/ and dist/src/ alike. */
import { existsSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

/**
 * Walks up from `fromUrl` (a module's import.meta.url) to the first directory holding package.json and
 * `marker` (a folder the caller needs, e.g. 'build'). Six levels cover dist/src/<folder>/file.js.
 */
export function packageRoot(fromUrl: string, marker: string): string {
  let dir = dirname(fileURLToPath(fromUrl));
  for (let i = 0; i < 6; i++) {
    if (existsSync(join(dir, 'package.json')) && existsSync(join(dir, marker))) return dir;
    dir = dirname(dir);
  }
  throw new Error(`quarry: cannot find the package root holding ${marker}/`);
}

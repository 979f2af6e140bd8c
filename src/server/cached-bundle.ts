/**
 * A CommonJS bundle (`quarry import`'s: package.json build:import) loaded with V8's code cache: the
 * compiled code of its functions kept in a file beside it, made by the first run and read by the next.
 * Node 20 has no code cache for ES modules, so each import compiled the 1.2 MB bundle afresh before
 * its first row, and each function again when first called during the load (the main thread's time
 * before the build thread's first job, which is on the import's critical path). The cache's name
 * carries a hash of the bundle's text (V8 checks only the text's length: a rebuilt bundle of the same
 * length must not find the old code) and of Node's flags (V8 refuses a cache made under other flags
 * or another version: then it compiles, and the cache is made again). Writing it may fail (a
 * read-only install): no cache then.
 */
import { createHash } from 'node:crypto';
import { readdirSync, readFileSync, renameSync, statSync, unlinkSync, writeFileSync } from 'node:fs';
import { createRequire, Module } from 'node:module';
import { basename, dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { Script } from 'node:vm';

export interface CachedBundle<T> {
  exports: T;
  /** Whether V8 took the compiled code from the cache file. */
  fromCache: boolean;
  /** Writes the code cache when there was none to read (call once the command's work is done). */
  save(): void;
}

/** Evaluates the CommonJS bundle at `url` as `require` would, its compiled code from the cache when there is one. */
export function loadCachedBundle<T>(url: URL): CachedBundle<T> {
  const file = fileURLToPath(url);
  const source = readFileSync(file, 'utf8');
  // V8 refuses code made under other flags: Node's flags name the cache too, so a run under other
  // flags (bin/quarry.js's shell line adds --min-semi-space-size; a bench runs Node bare) keeps its own
  const flags = `${process.execArgv.join(' ')}\n${process.env.NODE_OPTIONS ?? ''}`;
  const cacheFile = `${file}.${createHash('sha1').update(source).update(flags).digest('hex').slice(0, 16)}.v8cache`;
  let cachedData: Buffer | undefined;
  try {
    cachedData = readFileSync(cacheFile);
  } catch {
    cachedData = undefined;
  }
  const script = new Script(Module.wrap(source), { filename: file, cachedData });
  const missing = !cachedData || script.cachedDataRejected === true;
  const module = { exports: {} as T };
  const fn = script.runInThisContext() as (...args: unknown[]) => void;
  fn.call(module.exports, module.exports, createRequire(file), module, file, dirname(file));
  return {
    exports: module.exports,
    fromCache: !missing,
    save: () => {
      if (!missing) return;
      const tmp = `${cacheFile}.${process.pid}.tmp`;
      try {
        // made now, it holds the functions the run compiled, not only the bundle's top level
        writeFileSync(tmp, script.createCachedData());
        renameSync(tmp, cacheFile);
        dropStale(file);
      } catch {
        // no cache: the next run compiles as this one did; a part written (disk full) is not left behind
        try {
          unlinkSync(tmp);
        } catch {
          // never made, or renamed
        }
      }
    },
  };
}

/** Caches of `file` older than it: made for an earlier build (a rebuild would otherwise leave each behind). */
function dropStale(file: string): void {
  const built = statSync(file).mtimeMs;
  const dir = dirname(file);
  const prefix = `${basename(file)}.`;
  for (const name of readdirSync(dir)) {
    if (!name.startsWith(prefix) || !name.endsWith('.v8cache')) continue;
    const path = join(dir, name);
    if (statSync(path).mtimeMs < built) unlinkSync(path);
  }
}

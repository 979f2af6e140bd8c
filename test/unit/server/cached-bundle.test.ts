// A CommonJS bundle loaded with V8's code cache: the first load compiles and save() writes the cache,
// the next load takes its code from it; a changed bundle of the same length never finds the old cache.
import { afterAll, describe, expect, it } from 'vitest';
import { mkdirSync, mkdtempSync, readdirSync, rmSync, utimesSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { loadCachedBundle } from '../../../src/server/cached-bundle.js';

const dir = mkdtempSync(join(tmpdir(), 'quarry-cached-bundle-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

/** A bundle whose `answer()` returns `n`, with enough functions for a cache worth the name. */
function bundle(n: number): string {
  const helpers = Array.from({ length: 50 }, (_, i) => `function h${i}(x) { return x + ${i}; }`).join('\n');
  return `${helpers}\nconst path = require('node:path');\nexports.answer = () => h0(${n}) + path.sep.length - 1;\nexports.dir = __dirname;\n`;
}

describe('cached bundle', () => {
  const file = join(dir, 'b.cjs');
  const caches = () => readdirSync(dir).filter((f) => f.endsWith('.v8cache'));

  it('compiles the first time and writes the cache on save, then loads from it', () => {
    writeFileSync(file, bundle(7));
    const first = loadCachedBundle<{ answer(): number; dir: string }>(pathToFileURL(file));
    expect(first.fromCache).toBe(false);
    expect(first.exports.answer()).toBe(7);
    expect(first.exports.dir).toBe(dir);
    first.save();
    expect(caches()).toHaveLength(1);
    const second = loadCachedBundle<{ answer(): number }>(pathToFileURL(file));
    expect(second.fromCache).toBe(true);
    expect(second.exports.answer()).toBe(7);
    second.save(); // nothing to write: the cache was used
    expect(caches()).toHaveLength(1);
  });

  it('does not take the cache of another bundle text of the same length', () => {
    writeFileSync(file, bundle(8)); // one digit changed: the same length, other code
    const changed = loadCachedBundle<{ answer(): number }>(pathToFileURL(file));
    expect(changed.fromCache).toBe(false);
    expect(changed.exports.answer()).toBe(8);
    const old = caches()[0]!;
    utimesSync(join(dir, old), new Date(0), new Date(0)); // made before the bundle was rebuilt
    changed.save();
    expect(caches()).toHaveLength(1); // its own, the earlier build's dropped
    expect(caches()).not.toContain(old);
  });

  it('leaves no temporary file behind when the cache cannot take its place', () => {
    writeFileSync(file, bundle(10));
    const before = caches();
    loadCachedBundle(pathToFileURL(file)).save();
    const name = caches().find((f) => !before.includes(f))!;
    rmSync(join(dir, name));
    mkdirSync(join(dir, name)); // a directory where the cache goes: the rename fails
    const loaded = loadCachedBundle<{ answer(): number }>(pathToFileURL(file));
    expect(loaded.fromCache).toBe(false);
    expect(() => loaded.save()).not.toThrow();
    expect(readdirSync(dir).filter((f) => f.endsWith('.tmp'))).toEqual([]);
    rmSync(join(dir, name), { recursive: true });
  });

  it('runs without a cache where none can be written', () => {
    const ro = join(dir, 'missing-dir', 'b.cjs');
    expect(() => loadCachedBundle(pathToFileURL(ro))).toThrow(); // no bundle: the caller falls back
    writeFileSync(file, bundle(9));
    const loaded = loadCachedBundle<{ answer(): number }>(pathToFileURL(file));
    rmSync(dir, { recursive: true, force: true }); // its directory gone: save() cannot write
    expect(() => loaded.save()).not.toThrow();
    expect(loaded.exports.answer()).toBe(9);
  });
});

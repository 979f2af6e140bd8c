// SHOW VERSION: searchd answers it itself (Component, Version), one row per loaded component.
// quarry loads no columnar/secondary/knn libraries, so only the Daemon row, with VERSION()'s value (@@version is
// Buddy's MySQL version, 8.0.43).
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, expect, it } from 'vitest';
import { newSession, openEngine, type Engine } from '../../../../src/engine/index.js';

let dir: string;
let engine: Engine;
beforeEach(async () => {
  dir = mkdtempSync(join(tmpdir(), 'quarry-show-version-'));
  engine = await openEngine({ dataDir: dir });
});
afterEach(async () => {
  await engine.close();
  rmSync(dir, { recursive: true, force: true });
});

it('SHOW VERSION lists the Daemon component with the same version as VERSION(), with or without a trailing ;', async () => {
  const session = newSession();
  const [v] = await engine.execute('SELECT VERSION()', session);
  const version = v!.kind === 'rows' ? String(v!.rows[0]![0]) : '';
  expect(version).not.toBe('');
  for (const text of ['SHOW VERSION', 'show version;']) {
    const [r] = await engine.execute(text, session);
    expect(r).toMatchObject({ kind: 'rows', rows: [['Daemon', version]] });
    expect(r!.kind === 'rows' && r!.columns.map((c) => c.name)).toEqual(['Component', 'Version']);
  }
});

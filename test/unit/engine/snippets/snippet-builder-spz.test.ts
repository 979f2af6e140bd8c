import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { newSession, openEngine, type Engine } from '../../../../src/engine/index.js';

let dir: string;
let engine: Engine;
const s = newSession();
const snippet = async (text: string, query: string) => {
  const [r] = await engine.execute(`CALL SNIPPETS('${text}', 'sp', '${query}', 0 AS limit)`, s);
  if (r.kind !== 'rows') throw new Error(JSON.stringify(r));
  return r.rows[0][0];
};

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'quarry-snip-spz-'));
  engine = await openEngine({ dataDir: dir });
  await engine.execute("CREATE TABLE sp (body text) index_sp='1'", s);
});
afterAll(async () => {
  await engine.close();
  rmSync(dir, { recursive: true, force: true });
});

describe('CALL SNIPPETS with SENTENCE', () => {
  // A sentence ends at . ! ? followed by an upper-case word (Manticore's rule; lower case continues it).
  it('marks only the occurrences inside one sentence that holds both operands', async () => {
    expect(await snippet('Apple here. Pie there. Apple pie now.', 'apple SENTENCE pie'))
      .toBe('Apple here. Pie there. <b>Apple pie</b> now.');
  });

  it('marks nothing when no sentence holds both', async () => {
    expect(await snippet('Apple here. Pie there.', 'apple SENTENCE pie')).toBe('Apple here. Pie there.');
  });
});

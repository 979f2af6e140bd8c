// searchd builds bool{must:[match_all], must_not:[x]} as AND(NULL, NOT(x)). Its null sweep removes the
// NULL, and with not_terms_only_allowed off it then voids the NOT left alone under the AND: the tree is
// empty, so the answer is 0 hits with no error and no warning. With not_terms_only_allowed=1 the lone NOT
// stays and matches every doc without x. Over the real /search route and engine.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { newSession, openEngine, type Engine } from '../../../src/engine/index.js';
import { createHttpApp } from '../../../src/http/app.js';

let dir: string;
let engine: Engine;
let app: ReturnType<typeof createHttpApp>;
const BODY = '{"table":"t","query":{"bool":{"must":[{"match_all":{}}],"must_not":[{"match":{"title":"apple"}}]}}}';

async function search(): Promise<{ status: number; body: Record<string, any> }> {
  const res = await app.request('/search', { method: 'POST', body: BODY });
  return { status: res.status, body: JSON.parse(await res.text()) };
}

beforeEach(async () => {
  dir = mkdtempSync(join(tmpdir(), 'quarry-json-mall-'));
  engine = await openEngine({ dataDir: dir });
  app = createHttpApp({ engine, maxBodyBytes: 4096, onInternalError: () => {} });
  await engine.execute('create table t (title text)', newSession());
  await engine.execute("insert into t (id, title) values (1, 'apple pie'), (2, 'banana split'), (3, 'cherry')", newSession());
});
afterEach(async () => {
  await engine.close();
  rmSync(dir, { recursive: true, force: true });
});

describe('/search bool must match_all + must_not', () => {
  it('answers 0 hits, no error, no warning, as searchd does by default', async () => {
    const r = await search();
    expect(r.status).toBe(200);
    expect(r.body.error).toBeUndefined();
    expect(r.body.warning).toBeUndefined();
    expect(r.body.hits.total).toBe(0);
    expect(r.body.hits.hits).toEqual([]);
  });

  it('answers docs 2 and 3 once not_terms_only_allowed=1', async () => {
    await engine.execute('set global not_terms_only_allowed=1', newSession());
    const r = await search();
    expect(r.status).toBe(200);
    expect(r.body.hits.total).toBe(2);
    expect(r.body.hits.hits.map((h: { _id: number }) => h._id)).toEqual([2, 3]);
  });
});

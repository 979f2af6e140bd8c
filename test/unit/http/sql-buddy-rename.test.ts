// `/sql` without mode refuses every statement but SELECT (searchd's 501), except ALTER TABLE ... RENAME,
// which searchd passes to Buddy and Buddy answers in the raw shape (CLT core/test-alter-rename-http.rec).
import { describe, expect, it } from 'vitest';
import { ok } from '../../../src/engine/result.js';
import { createHttpApp } from '../../../src/http/app.js';
import { EngineDouble } from './engine-double.js';

function setup() {
  const engine = new EngineDouble({
    'ALTER TABLE articles RENAME articles2': [ok(0)],
    'ALTER TABLE nonexistent RENAME new_name': [{ kind: 'error', code: 'NO_SUCH_TABLE', message: 'Source table nonexistent not exists' }],
  });
  return { engine, app: createHttpApp({ engine, onInternalError: () => {} }) };
}

describe('/sql?query=ALTER TABLE ... RENAME (Buddy-answered)', () => {
  it('renames and answers as /sql?mode=raw', async () => {
    const { app, engine } = setup();
    const res = await app.request('/sql?query=ALTER%20TABLE%20articles%20RENAME%20articles2');
    expect(res.status).toBe(200);
    expect(await res.text()).toBe('[{"total":0,"error":"","warning":""}]');
    expect(engine.calls.map((c) => c.sql)).toEqual(['ALTER TABLE articles RENAME articles2']);
  });

  it('a missing source table is the error alone', async () => {
    const { app } = setup();
    const res = await app.request('/sql?query=ALTER+TABLE+nonexistent+RENAME+new_name');
    expect(await res.json()).toEqual({ error: 'Source table nonexistent not exists' });
  });

  it('other ALTERs are still refused without running', async () => {
    const { app, engine } = setup();
    const res = await app.request('/sql', { method: 'POST', body: "ALTER TABLE articles ADD COLUMN x int" });
    expect(res.status).toBe(501);
    expect(engine.calls).toEqual([]);
  });
});

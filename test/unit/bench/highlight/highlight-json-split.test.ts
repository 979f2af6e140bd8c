// bench/highlight/highlight-json-split.ts: the parts of the JSON highlight request run against a real engine, each
// pass over the queries, and a failing statement stops the pass instead of being timed as if answered.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { newSession, open } from '../../../../src/index.js';
import { searchReply } from '../../../../src/http/json-routes.js';
import { replyBody } from '../../../../src/http/sql-routes.js';
import { writeSearchJson } from '../../../../src/http/render-search.js';
import { ByteSink } from '../../../../src/http/reply-sink.js';
import { parseJsonText } from '../../../../src/http/json-body.js';
import { splitParts, type SplitDeps } from '../../../../bench/highlight/highlight-json-split.js';

describe('splitParts', () => {
  const dir = mkdtempSync(join(tmpdir(), 'quarry-split-'));
  let db: Awaited<ReturnType<typeof open>>;
  let deps: SplitDeps;

  beforeAll(async () => {
    db = await open(join(dir, 'db'));
    await db.sql("CREATE TABLE gcide (title text, body text, len uint) morphology='stem_en'");
    await db.sql("INSERT INTO gcide (id, title, body, len) VALUES (1,'Apple','An apple \"fruit\" of the tree',28),(2,'Pear','A pear, not an apple',20)");
    deps = {
      db, json: db.engine.json!, session: newSession(), searchReply, replyBody, writeSearchJson, ByteSink, parseJsonText,
    } as unknown as SplitDeps;
  });
  afterAll(async () => { await db.close(); rmSync(dir, { recursive: true, force: true }); });

  it('runs every part over the queries', async () => {
    const parts = splitParts(deps);
    expect(parts.map((p) => p.name)).toContain('SQL HIGHLIGHT()');
    for (const p of parts) {
      const pass = await p.prepare(['apple', 'pear']);
      await expect(pass()).resolves.toBeUndefined();
    }
  });

  it('stops a pass whose SQL statement fails', async () => {
    await db.sql('DROP TABLE gcide');
    const sqlPart = splitParts(deps).find((p) => p.name === 'SQL HIGHLIGHT()')!;
    await expect((await sqlPart.prepare(['apple']))()).rejects.toThrow(/gcide/);
  });
});

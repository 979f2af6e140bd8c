// The rule of issue 13: no SELECT clause, OPTION or /search key the parsers accept is silently ignored.
// Each one either changes the answer (against the same statement without it) or is rejected with an
// error naming it, over every SQL transport (MySQL, /sql?mode=raw, /sql, /cli_json, /cli) and over
// /search. Options Manticore itself ignores on a single-node server are accepted only with the reason
// statement-options.ts gives, and must leave the answer unchanged.
import mysql from 'mysql2/promise';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { OTHER_OPTIONS, SELECT_OPTIONS, UPDATE_OPTIONS } from '../../src/engine/statement-options.js';
import { SEARCH_KEYS, UNSUPPORTED_SEARCH_KEYS } from '../../src/engine/json/json-search-keys.js';
import { AGG_KEYS } from '../../src/engine/group/json-aggs.js';
import { startQuarry, type QuarryProcess } from './mysql-server.js';

type Answer = { error: string } | { ok: string };

let q: QuarryProcess;
let conn: mysql.Connection;
const base = (): string => `http://127.0.0.1:${q.httpPort}`;

async function post(path: string, body: string): Promise<{ status: number; text: string }> {
  const res = await fetch(`${base()}${path}`, { method: 'POST', body });
  return { status: res.status, text: await res.text() };
}

/** Answers with timings removed, so that the same result gives the same text. */
const TRANSPORTS: Record<string, (sql: string) => Promise<Answer>> = {
  async mysql(sql) {
    try {
      const [rows] = await conn.query({ sql, rowsAsArray: true });
      return { ok: JSON.stringify(rows, (_k, v) => (typeof v === 'bigint' ? String(v) : v)) };
    } catch (e) {
      return { error: (e as { sqlMessage?: string }).sqlMessage ?? String(e) };
    }
  },
  async raw(sql) {
    const r = await post('/sql?mode=raw', sql);
    const body = JSON.parse(r.text);
    if (!Array.isArray(body)) return { error: String(body.error) };
    if (body[0]?.error) return { error: String(body[0].error) };
    return { ok: JSON.stringify(body.map((x: Record<string, unknown>) => ({ ...x, time: undefined }))) };
  },
  async sql(sql) {
    if (!/^\s*select/i.test(sql)) return TRANSPORTS.raw!(sql);
    const r = await post('/sql', sql);
    const body = JSON.parse(r.text);
    if (body.error) return { error: typeof body.error === 'string' ? body.error : JSON.stringify(body.error) };
    return { ok: JSON.stringify({ ...body, took: undefined }) };
  },
  async cli_json(sql) {
    const r = await post('/cli_json', sql);
    const body = JSON.parse(r.text);
    if (!Array.isArray(body)) return { error: String(body.error) };
    if (body[0]?.error) return { error: String(body[0].error) };
    return { ok: JSON.stringify(body.map((x: Record<string, unknown>) => ({ ...x, time: undefined }))) };
  },
  async cli(sql) {
    const r = await post('/cli', sql);
    if (/^ERROR/m.test(r.text) || r.status >= 400) return { error: r.text };
    return { ok: r.text.replace(/\(\d+\.\d+ sec\)/g, '') };
  },
};

async function search(body: unknown): Promise<Answer> {
  const r = await post('/search', JSON.stringify(body));
  const parsed = JSON.parse(r.text);
  if (parsed.error) return { error: typeof parsed.error === 'string' ? parsed.error : JSON.stringify(parsed.error) };
  return { ok: JSON.stringify({ ...parsed, took: undefined }) };
}

/** `variant` differs from `baseline` on every transport (both succeed). */
async function expectChanges(baseline: string, variant: string): Promise<void> {
  for (const [name, run] of Object.entries(TRANSPORTS)) {
    const [a, b] = [await run(baseline), await run(variant)];
    expect(a, `${name}: ${baseline}`).toHaveProperty('ok');
    expect(b, `${name}: ${variant}`).toHaveProperty('ok');
    expect((b as { ok: string }).ok, `${name}: ${variant} vs ${baseline}`).not.toBe((a as { ok: string }).ok);
  }
}

/** `variant` fails on every transport with a message containing `needle`. */
async function expectRejected(variant: string, needle: string): Promise<void> {
  for (const [name, run] of Object.entries(TRANSPORTS)) {
    const r = await run(variant);
    expect(r, `${name}: ${variant}`).toHaveProperty('error');
    expect((r as { error: string }).error.toLowerCase(), `${name}: ${variant}`).toContain(needle.toLowerCase());
  }
}

/** `variant` gives exactly the answer of `baseline` on every transport. */
async function expectSame(baseline: string, variant: string): Promise<void> {
  for (const [name, run] of Object.entries(TRANSPORTS)) {
    const [a, b] = [await run(baseline), await run(variant)];
    expect(a, `${name}: ${baseline}`).toHaveProperty('ok');
    expect(b, `${name}: ${variant}`).toEqual(a);
  }
}

beforeAll(async () => {
  q = await startQuarry();
  conn = await mysql.createConnection({ host: '127.0.0.1', port: q.mysqlPort, user: 'root' });
  await q.sql("CREATE TABLE sw (title text, price float, cat uint) min_prefix_len='2'");
  await q.sql(`INSERT INTO sw (id, title, price, cat) VALUES (1, 'red apple', 10, 1), (2, 'green apple pie', 20, 1),
    (3, 'banana', 20, 2), (4, 'apricot jam', 5, 3), (5, 'apple apple apple', 7, 2)`);
}, 60_000);
afterAll(async () => {
  await conn?.end();
  await q?.stop();
});

const ALL = 'SELECT id, weight() FROM sw ORDER BY id ASC';
const APPLE = "SELECT id, weight() FROM sw WHERE MATCH('apple') ORDER BY id ASC";

describe('SELECT clauses', () => {
  it('WHERE, MATCH, ORDER BY, LIMIT, OFFSET and OPTION change the answer', async () => {
    await expectChanges(ALL, 'SELECT id, weight() FROM sw WHERE cat = 1 ORDER BY id ASC');
    await expectChanges(ALL, "SELECT id, weight() FROM sw WHERE MATCH('apple') ORDER BY id ASC");
    await expectChanges(ALL, 'SELECT id, weight() FROM sw ORDER BY id DESC');
    await expectChanges(ALL, 'SELECT id, weight() FROM sw ORDER BY id ASC LIMIT 2');
    await expectChanges(ALL, 'SELECT id, weight() FROM sw ORDER BY id ASC LIMIT 1, 2');
    await expectChanges(ALL, 'SELECT id, weight() FROM sw ORDER BY id ASC LIMIT 2 OFFSET 1');
    await expectChanges(ALL, 'SELECT id, weight() FROM sw ORDER BY id ASC OPTION max_matches=2');
  });

  it('GROUP BY, HAVING and aggregates change the answer', async () => {
    const grouped = 'SELECT cat, COUNT(*) FROM sw GROUP BY cat ORDER BY cat ASC';
    await expectChanges('SELECT cat, COUNT(*) FROM sw ORDER BY cat ASC', grouped);
    await expectChanges(grouped, 'SELECT cat, COUNT(*) FROM sw GROUP BY cat HAVING COUNT(*) > 1 ORDER BY cat ASC');
    await expectChanges(grouped, 'SELECT cat, COUNT(*) FROM sw GROUP BY cat ORDER BY COUNT(*) DESC, cat DESC');
    const rep = 'SELECT cat, id FROM sw GROUP BY cat ORDER BY cat ASC';
    await expectChanges(rep, 'SELECT cat, id FROM sw GROUP BY cat WITHIN GROUP ORDER BY id DESC ORDER BY cat ASC');
    await expectChanges(rep, 'SELECT cat, id FROM sw GROUP 2 BY cat ORDER BY cat ASC');
    await expectChanges(rep, 'SELECT cat, id, GROUP_CONCAT(id) FROM sw GROUP BY cat ORDER BY cat ASC');
    await expectChanges('SELECT cat FROM sw GROUP BY cat ORDER BY cat ASC', 'SELECT cat, SUM(price), COUNT(DISTINCT price) FROM sw GROUP BY cat ORDER BY cat ASC');
  });

  it('select-list expressions and WHERE over their alias change the answer', async () => {
    await expectChanges('SELECT id FROM sw ORDER BY id ASC', 'SELECT id, price*2 AS p2 FROM sw ORDER BY id ASC');
    await expectChanges('SELECT id, price*2 AS p2 FROM sw ORDER BY id ASC', 'SELECT id, price*2 AS p2 FROM sw WHERE p2 > 20 ORDER BY id ASC');
    await expectChanges('SELECT id, price*2 AS p2 FROM sw ORDER BY id ASC', 'SELECT id, price*2 AS p2 FROM sw ORDER BY p2 DESC, id ASC');
  });

  it('ORDER BY a string expression or a JSON-typed key changes the answer', async () => {
    await expectChanges('SELECT id, TO_STRING(cat) AS l FROM sw ORDER BY l ASC, id ASC', 'SELECT id, TO_STRING(cat) AS l FROM sw ORDER BY l DESC, id ASC');
  });

  it('FACET filter scopes (FILTERS, EXCLUDE FILTERS, MODE auto|max, ZEROES) change the answer; ALL FILTERS and MODE strict are the default', async () => {
    const base = 'SELECT id FROM sw WHERE cat = 1 AND price > 5 ORDER BY id ASC FACET cat';
    await expectChanges(base, `${base} EXCLUDE FILTERS cat`);
    await expectChanges(base, `${base} FILTERS price`);
    await expectChanges(base, `${base} MODE auto`);
    await expectChanges(`${base} MODE auto`, `${base} MODE max`);
    await expectChanges(`${base} ALL FILTERS MODE max`, `${base} ALL FILTERS ZEROES MODE max`);
    await expectChanges(base, `SELECT id FROM sw WHERE cat = 1 AND price > 5 ORDER BY id ASC OPTION facet_filter_mode='max' FACET cat`);
    await expectSame(base, `${base} ALL FILTERS`);
    await expectSame(base, `${base} MODE strict`);
    // Manticore's ZEROES keeps the zero-count buckets of max mode's broad query; strict and auto have none
    await expectSame(base, `${base} ZEROES`);
  });

  it('FACET and its ORDER BY, LIMIT, BY and DISTINCT change the answer', async () => {
    await expectChanges(ALL, `${ALL} FACET cat`);
    await expectChanges(`${ALL} FACET cat`, `${ALL} FACET cat ORDER BY cat DESC`);
    await expectChanges(`${ALL} FACET cat`, `${ALL} FACET cat LIMIT 1`);
    await expectChanges(`${ALL} FACET cat`, `${ALL} FACET cat BY price`);
    await expectChanges(`${ALL} FACET cat`, `${ALL} FACET cat DISTINCT price`);
    await expectChanges(`${ALL} FACET cat`, `${ALL} FACET cat ALL FILTERS FACET price`);
  });

  it('clauses not implemented yet are rejected, naming the clause', async () => {
    await expectRejected('SELECT id FROM sw HAVING cat = 1', 'HAVING');
    await expectRejected('SELECT id, uuid_short() FROM sw', 'UUID_SHORT()');
    await expectRejected('SELECT cat FROM sw GROUP BY cat WITHIN GROUP ORDER BY price*2 DESC', 'syntax error');
    await expectRejected('SELECT cat FROM sw GROUP BY title', "'title'");
  });
});

/** For each option that works: a statement whose answer it changes, against the same one without it. */
const WORKS: Record<string, [string, string]> = {
  facet_filter_mode: ['SELECT id FROM sw WHERE cat = 1 FACET cat', "SELECT id FROM sw WHERE cat = 1 OPTION facet_filter_mode='auto' FACET cat"],
  expand_keywords: ["SELECT id FROM sw WHERE MATCH('app') ORDER BY id ASC", "SELECT id FROM sw WHERE MATCH('app') ORDER BY id ASC OPTION expand_keywords=1"],
  expansion_limit: ["SELECT id FROM sw WHERE MATCH('ap*') ORDER BY id ASC", "SELECT id FROM sw WHERE MATCH('ap*') ORDER BY id ASC OPTION expansion_limit=1"],
  field_weights: [APPLE, `${APPLE} OPTION field_weights=(title=7)`],
  idf: [`${APPLE} OPTION ranker=bm25`, `${APPLE} OPTION ranker=bm25, idf='plain'`],
  index_weights: [APPLE, `${APPLE} OPTION index_weights=(sw=3)`],
  max_matches: [ALL, `${ALL} OPTION max_matches=3`],
  not_terms_only_allowed: [ALL, "SELECT id, weight() FROM sw WHERE MATCH('-apple') ORDER BY id ASC OPTION not_terms_only_allowed=1"],
  ranker: [APPLE, `${APPLE} OPTION ranker=none`],
  rand_seed: ['SELECT id FROM sw ORDER BY RAND() OPTION rand_seed=1', 'SELECT id FROM sw ORDER BY RAND() OPTION rand_seed=2'],
};
/**
 * Works, proved elsewhere: max_query_time needs a slow query (test/unit/index/max-query-time.test.ts);
 * threads changes which threads run the query, never the answer (test/unit/index/parallel/search-parallel.test.ts).
 */
const WORKS_ELSEWHERE = new Set(['max_query_time', 'threads']);

/** A value each option accepts; `other` a value quarry does not implement for `default` options. */
function valueOf(name: string, rule: (typeof SELECT_OPTIONS)[string]): string {
  if (rule.rule.use === 'default') return /^\d+$/.test(rule.rule.value) ? rule.rule.value : `'${rule.rule.value}'`;
  if (rule.values) return `'${rule.values[0]}'`;
  if (rule.int) return '1';
  if (name === 'idf') return "'plain'";
  if (name === 'ranker') return 'none';
  return name === 'field_weights' || name === 'index_weights' || name === 'fusion_weights' ? '(title=1)' : "'x'";
}

describe('SELECT options', () => {
  it('an unknown option is Manticore\'s parse error', async () => {
    await expectRejected(`${ALL} OPTION bogus=1`, "unknown option 'bogus'");
    await expectRejected(`${ALL} OPTION max_matches=1, key1=2`, "unknown option 'key1'");
    await expectRejected(`${ALL} OPTION max_matches=abc`, "max_matches value should be a number: 'abc'");
    await expectRejected(`${ALL} OPTION reverse_scan=1`, 'reverse_scan is deprecated');
    await expectRejected(`${ALL} OPTION sort_method=heap`, 'sort_method');
  });

  for (const [name, rule] of Object.entries(SELECT_OPTIONS)) {
    it(`${name}: ${rule.rule.use}`, async () => {
      const v = valueOf(name, rule);
      switch (rule.rule.use) {
        case 'works': {
          if (WORKS_ELSEWHERE.has(name)) return;
          const pair = WORKS[name];
          expect(pair, `a case proving OPTION ${name} changes the answer`).toBeDefined();
          await expectChanges(pair![0], pair![1]);
          return;
        }
        case 'inert':
          // Manticore has no effect for it here either (the reason is in statement-options.ts)
          expect(rule.rule.why.length).toBeGreaterThan(10);
          await expectSame(APPLE, `${APPLE} OPTION ${name}=${v}`);
          return;
        case 'default': {
          await expectSame(APPLE, `${APPLE} OPTION ${name}=${v}`);
          const other = rule.values ? `'${rule.values.find((x) => x !== rule.rule.value)}'` : rule.int ? '1' : "'1'";
          await expectRejected(`${APPLE} OPTION ${name}=${other}`, `option '${name}' is not supported`);
          return;
        }
        case 'unsupported':
          await expectRejected(`${APPLE} OPTION ${name}=${v}`, name);
          return;
      }
    });
  }
});

describe('options of the other statements', () => {
  it('UPDATE: unknown rejected, inert accepted, not implemented rejected', async () => {
    await expectRejected('UPDATE sw SET cat=1 WHERE id=1 OPTION bogus=1', "unknown option 'bogus'");
    for (const [name, rule] of Object.entries(UPDATE_OPTIONS)) {
      const sql = `UPDATE sw SET cat=cat WHERE id=1 OPTION ${name}=${valueOf(name, rule)}`;
      const r = await TRANSPORTS.raw!(sql.replace('cat=cat', 'cat=1'));
      if (rule.rule.use === 'unsupported') expect(r, sql).toHaveProperty('error');
      else expect(r, sql).toHaveProperty('ok');
    }
    // the option list is per statement: a SELECT-only option is unknown to UPDATE, as in Manticore
    await expectRejected('UPDATE sw SET cat=1 WHERE id=1 OPTION expansion_limit=1', "unknown option 'expansion_limit'");
  });

  it('DELETE, INSERT, SHOW, OPTIMIZE, DROP TABLE take only their own options', async () => {
    await expectRejected('DELETE FROM sw WHERE id=99 OPTION ranker=none', "unknown option 'ranker'");
    await expectRejected('DELETE FROM sw WHERE id=99 OPTION store=1', "option 'store' is not supported");
    await expectRejected("INSERT INTO sw (id, title) VALUES (99, 'x') OPTION max_matches=1", "unknown option 'max_matches'");
    await expectRejected('SHOW META OPTION ranker=none', "unknown option 'ranker'");
    await expectRejected('OPTIMIZE TABLE sw OPTION ranker=none', "unknown option 'ranker'");
    await expectRejected('DROP TABLE IF EXISTS nosuch OPTION ranker=none', "unknown option 'ranker'");
    for (const name of Object.keys(OTHER_OPTIONS.optimize!)) {
      expect(await TRANSPORTS.raw!(`OPTIMIZE TABLE sw OPTION ${name}=1`)).toHaveProperty('ok');
    }
  });
});

describe('/search keys', () => {
  const q0 = { table: 'sw', query: { match: { title: 'apple' } } };
  async function changes(variant: Record<string, unknown>, baseline: Record<string, unknown> = q0): Promise<void> {
    const [a, b] = [await search(baseline), await search(variant)];
    expect(a).toHaveProperty('ok');
    expect(b, JSON.stringify(variant)).toHaveProperty('ok');
    expect((b as { ok: string }).ok, JSON.stringify(variant)).not.toBe((a as { ok: string }).ok);
  }
  async function rejected(variant: Record<string, unknown>, needle: string): Promise<void> {
    const r = await search(variant);
    expect(r, JSON.stringify(variant)).toHaveProperty('error');
    expect((r as { error: string }).error, JSON.stringify(variant)).toContain(needle);
  }

  /** Each key quarry reads changes the answer. */
  const KEY_CASES: Record<string, () => Promise<void>> = {
    table: () => rejected({ query: q0.query }, 'table'),
    index: () => changes({ index: 'sw', query: q0.query }, { table: 'sw', query: { match: { title: 'banana' } } }),
    query: () => changes({ table: 'sw' }),
    limit: () => changes({ ...q0, limit: 1 }),
    size: () => changes({ ...q0, size: 1 }),
    offset: () => changes({ ...q0, offset: 1 }),
    from: () => changes({ ...q0, from: 1 }),
    max_matches: () => changes({ ...q0, max_matches: 1 }),
    sort: () => changes({ ...q0, sort: [{ id: 'desc' }] }),
    track_scores: () => changes({ ...q0, sort: [{ id: 'desc' }], track_scores: true }, { ...q0, sort: [{ id: 'desc' }] }),
    _source: () => changes({ ...q0, _source: ['price'] }),
    options: () => changes({ ...q0, options: { ranker: 'none' } }),
    script_fields: () => changes({ ...q0, script_fields: { h: { script: { inline: 'highlight()' } } } }),
    expressions: () => changes({ ...q0, expressions: { p2: 'price*2' } }),
    highlight: () => changes({ ...q0, highlight: { fields: ['title'] } }),
    aggs: async () => {
      await changes({ ...q0, aggs: { c: { terms: { field: 'cat' } } } });
      await rejected({ ...q0, aggs: { c: { significant_terms: { field: 'price' } } } }, '"significant_terms"');
      await rejected({ ...q0, aggs: { c: { terms: { field: 'cat', include: 'x' } } } }, '"include"');
    },
    facet_filter_mode: async () => {
      const scoped = { table: 'sw', query: { bool: { must: [{ equals: { cat: 1 } }] } }, aggs: { c: { terms: { field: 'cat' } } } };
      await changes({ ...scoped, facet_filter_mode: 'auto' }, scoped);
      expect(await search({ ...scoped, facet_filter_mode: 'strict' })).toEqual(await search(scoped));
      const byPrice = { ...scoped, aggs: { c: { terms: { field: 'price' } } } };
      await changes({ ...byPrice, facet_filter_mode: 'max' }, { ...byPrice, facet_filter_mode: 'auto' });
    },
    // 0 is the default (no cutoff): accepted with the same answer; any other value is rejected
    cutoff: async () => {
      expect(await search({ ...q0, cutoff: 0 })).toEqual(await search(q0));
      await rejected({ ...q0, cutoff: 2 }, '"cutoff"');
    },
  };

  for (const key of SEARCH_KEYS) {
    it(`${key} changes the answer or is rejected`, async () => {
      expect(KEY_CASES[key], `a case for /search key ${key}`).toBeDefined();
      await KEY_CASES[key]!();
    });
  }

  /**
   * Each key of each aggregation type: [the aggregation without it, with it] (the answer changes), or a
   * reason the key is accepted without changing this answer.
   */
  const AGG_CASES: Record<string, Record<string, [object, object] | string>> = {
    terms: {
      field: [{ field: 'cat' }, { field: 'price' }], size: [{ field: 'cat' }, { field: 'cat', size: 1 }],
      order: [{ field: 'cat', order: { _key: 'asc' } }, { field: 'cat', order: { _key: 'desc' } }],
    },
    histogram: {
      field: [{ field: 'price', interval: 5 }, { field: 'cat', interval: 5 }],
      interval: [{ field: 'price', interval: 5 }, { field: 'price', interval: 10 }],
      offset: [{ field: 'price', interval: 10 }, { field: 'price', interval: 10, offset: 5 }],
      keyed: [{ field: 'price', interval: 5 }, { field: 'price', interval: 5, keyed: true }],
      size: 'Manticore keeps at least 1000 histogram buckets whatever the size',
    },
    range: {
      field: [{ field: 'price', ranges: [{ to: 8 }, { from: 8 }] }, { field: 'cat', ranges: [{ to: 8 }, { from: 8 }] }],
      ranges: [{ field: 'price', ranges: [{ to: 8 }, { from: 8 }] }, { field: 'price', ranges: [{ to: 15 }, { from: 15 }] }],
      keyed: [{ field: 'price', ranges: [{ to: 8 }] }, { field: 'price', keyed: true, ranges: [{ to: 8 }] }],
      size: 'Manticore keeps at least one bucket per range whatever the size',
    },
    date_range: {
      field: [{ field: 'price', ranges: [{ to: 'now' }] }, { field: 'cat', ranges: [{ from: 'now' }] }],
      ranges: [{ field: 'cat', ranges: [{ to: 'now' }] }, { field: 'cat', ranges: [{ from: 'now' }] }],
      keyed: [{ field: 'cat', ranges: [{ to: 'now' }] }, { field: 'cat', keyed: true, ranges: [{ to: 'now' }] }],
      size: 'Manticore keeps at least one bucket per range whatever the size',
    },
    date_histogram: {
      field: [{ field: 'cat', fixed_interval: '2s' }, { field: 'price', fixed_interval: '2s' }],
      calendar_interval: [{ field: 'cat', fixed_interval: '2s' }, { field: 'cat', calendar_interval: 'day' }],
      fixed_interval: [{ field: 'cat', calendar_interval: 'day' }, { field: 'cat', fixed_interval: '2s' }],
      time_zone: [{ field: 'cat', calendar_interval: 'day' }, { field: 'cat', calendar_interval: 'day', time_zone: 'Asia/Tokyo' }],
      offset: [{ field: 'cat', calendar_interval: 'day' }, { field: 'cat', calendar_interval: 'day', offset: '3h' }],
      keyed: [{ field: 'cat', calendar_interval: 'day' }, { field: 'cat', calendar_interval: 'day', keyed: true }],
      size: 'Manticore keeps at least 1000 histogram buckets whatever the size',
    },
    min: { field: [{ field: 'price' }, { field: 'cat' }] },
    max: { field: [{ field: 'price' }, { field: 'cat' }] },
    sum: { field: [{ field: 'price' }, { field: 'cat' }] },
    avg: { field: [{ field: 'price' }, { field: 'cat' }] },
    percentiles: {
      field: [{ field: 'price' }, { field: 'cat' }], values: [{ field: 'price' }, { field: 'price', values: [50] }],
      keyed: [{ field: 'price' }, { field: 'price', keyed: false }],
      tdigest: 'the t-digest compression tunes an estimate; quarry answers exactly (README)',
    },
    percentile_ranks: {
      field: [{ field: 'price', values: [10] }, { field: 'cat', values: [10] }],
      values: [{ field: 'price', values: [10] }, { field: 'price', values: [5] }],
      keyed: [{ field: 'price', values: [10] }, { field: 'price', values: [10], keyed: false }],
      tdigest: 'the t-digest compression tunes an estimate; quarry answers exactly (README)',
    },
    median_absolute_deviation: {
      field: [{ field: 'price' }, { field: 'cat' }],
      tdigest: 'the t-digest compression tunes an estimate; quarry answers exactly (README)',
    },
  };

  for (const [type, keys] of Object.entries(AGG_KEYS)) {
    it(`aggregation ${type}: each key changes the answer, an unknown key is rejected`, async () => {
      for (const key of keys) {
        const c = AGG_CASES[type]?.[key];
        expect(c, `a case for the ${type} key ${key}`).toBeDefined();
        if (typeof c === 'string') continue;
        const [without, withKey] = c!;
        await changes({ ...q0, aggs: { a: { [type]: without } } }, { ...q0, aggs: { a: { [type]: withKey } } });
      }
      await rejected({ ...q0, aggs: { a: { [type]: { field: 'price', bogus: 1 } } } }, '"bogus"');
      const values = keys.includes('values') ? { values: [1] } : {};
      if (keys.includes('tdigest')) await rejected({ ...q0, aggs: { a: { [type]: { field: 'price', ...values, tdigest: { bogus: 1 } } } } }, '"bogus"');
    });
  }

  it('aggregation filter scopes (mode, filters, exclude_filters, zeroes) change the answer', async () => {
    const q = { table: 'sw', query: { bool: { must: [{ equals: { cat: 1 } }, { range: { price: { gte: 15 } } }] } } };
    const agg = (extra: object) => ({ ...q, aggs: { c: { terms: { field: 'cat' }, ...extra } } });
    await changes(agg({ mode: 'auto' }), agg({}));
    await changes(agg({ exclude_filters: ['cat'] }), agg({}));
    await changes(agg({ filters: ['cat'] }), agg({}));
    expect(await search(agg({ mode: 'strict' }))).toEqual(await search(agg({})));
    await changes(agg({ mode: 'max' }), agg({ mode: 'auto' }));
    await changes(agg({ mode: 'max', filters: ['cat'], zeroes: true }), agg({ mode: 'max', filters: ['cat'] }));
    // Manticore's zeroes keeps the zero-count buckets of max mode's broad query; strict and auto have none
    expect(await search(agg({ zeroes: true }))).toEqual(await search(agg({})));
    await rejected(agg({ zeroes: 1 }), '"zeroes" property should be a boolean');
    await rejected(agg({ mode: 'most' }), "unknown facet mode 'most'");
  });

  it('sort by _geo_distance changes the order; its unsupported keys are rejected', async () => {
    const geo = (order: string) => ({ ...q0, sort: [{ _geo_distance: { location_anchor: { lat: 0, lon: 0 }, location_source: ['price', 'cat'], order } }] });
    await changes(geo('asc'), geo('desc'));
    await rejected({ ...q0, sort: [{ _geo_distance: { location_anchor: { lat: 0, lon: 0 }, location_source: ['price', 'cat'], unit: 'km' } }] }, '"unit"');
    await rejected({ ...q0, sort: [{ _geo_distance: { location_anchor: { lat: 0, lon: 0 }, location_source: ['price', 'cat'], mode: 'min' } }] }, '"mode"');
  });

  it('keys Manticore reads and quarry does not implement are rejected by name', async () => {
    for (const key of UNSUPPORTED_SEARCH_KEYS) await rejected({ ...q0, [key]: {} }, `"${key}"`);
  });

  it('unknown keys are rejected by name', async () => {
    await rejected({ ...q0, limt: 1 }, '"limt"');
  });

  it('options: the SELECT option list, unknown names rejected', async () => {
    await rejected({ ...q0, options: { bogus: 1 } }, "unknown option 'bogus'");
    await rejected({ ...q0, options: { cutoff: 5 } }, "option 'cutoff'");
    await rejected({ ...q0, options: { reverse_scan: 1 } }, 'reverse_scan');
    await changes({ ...q0, options: { max_matches: 1 } });
    await changes({ ...q0, options: { idf: 'plain', ranker: 'bm25' } }, { ...q0, options: { ranker: 'bm25' } });
    await changes({ ...q0, options: { index_weights: { sw: 3 } } });
    await changes({ ...q0, options: { field_weights: { title: 5 } } });
    const same = [await search(q0), await search({ ...q0, options: { threads: 2, comment: 'x', low_priority: 1 } })];
    expect(same[1]).toEqual(same[0]);
  });

  it('keys inside query objects are read or rejected', async () => {
    await changes({ table: 'sw', query: { match: { title: { query: 'apple pie', operator: 'and' } } } },
      { table: 'sw', query: { match: { title: { query: 'apple pie' } } } });
    await changes({ table: 'sw', query: { match: { title: { query: 'banana', boost: 3 } } } },
      { table: 'sw', query: { match: { title: { query: 'banana' } } } });
    await rejected({ table: 'sw', query: { match: { title: { query: 'apple', fuzziness: 1 } } } }, '"fuzziness"');
    await rejected({ table: 'sw', query: { match_phrase: { title: { query: 'apple', operator: 'and' } } } }, '"operator"');
    await rejected({ table: 'sw', query: { query_string: { query: 'apple', default_operator: 'and' } } }, '"default_operator"');
    await rejected({ table: 'sw', query: { bool: { should: [{ match: { title: 'apple' } }], minimum_should_match: 1 } } }, 'minimum_should_match');
    await rejected({ table: 'sw', query: { bool: { must: [{ match: { title: 'apple' }, range: { price: { gte: 10 } } }] } } }, '"range"');
    await rejected({ table: 'sw', query: { range: { price: { gte: 10, boost: 2 } } } }, '"boost"');
    // every bound given applies (Manticore drops lte when lt is given)
    await changes({ table: 'sw', query: { range: { price: { lt: 21, lte: 10 } } } }, { table: 'sw', query: { range: { price: { lt: 21 } } } });
  });
});

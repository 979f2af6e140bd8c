// No /search key the parser accepts is silently ignored (issue 13): each key quarry reads changes the
// answer, keys Manticore reads that quarry does not implement and unknown keys are rejected by name,
// and so are the keys inside query objects and aggregations.
import { describe, expect, it } from 'vitest';
import { SEARCH_KEYS, UNSUPPORTED_SEARCH_KEYS } from '../../../src/engine/json/json-search-keys.js';
import { AGG_KEYS } from '../../../src/engine/group/json-aggs.js';
import { search, useServer } from './harness.js';

useServer();

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
    // OPTION cutoff (sphinxjsonquery.cpp reads the top-level key into it): 0 is no cutoff, the same answer
    // here; N stops at the N-th match, the aggregations' matches too (json-aggs-cutoff.test.ts)
    cutoff: async () => {
      expect(await search({ ...q0, cutoff: 0 })).toEqual(await search(q0));
      await changes({ ...q0, cutoff: 1 });
      const aggs = { c: { terms: { field: 'cat' } } };
      await changes({ ...q0, cutoff: 1, aggs }, { ...q0, aggs });
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
    await changes({ ...q0, options: { cutoff: 1 }, aggs: { c: { terms: { field: 'cat' } } } }, { ...q0, aggs: { c: { terms: { field: 'cat' } } } });
    await changes({ ...q0, options: { cutoff: 1 } });
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

// JSON /search: geo_distance filters (anchor and source in their three forms, distance units, errors)
// and script_fields with expressions, over a real engine.
import { parse } from 'lossless-json';
import { describe, expect, it } from 'vitest';
import { newSession } from '../../../../src/engine/index.js';
import type { JsonValue } from '../../../../src/engine/json/json-value.js';
import { useTempEngine } from '../../../helpers/temp-engine.js';

const t = useTempEngine('json-geo', async (t) => {
  await t.exec('create table geo (title text, lat float, lon float, price float, qty uint)');
  // Prague, Brno (~185 km from Prague), Berlin (~280 km from Prague)
  await t.exec(`insert into geo (id, title, lat, lon, price, qty) values
    (1, 'prague', 50.0755, 14.4378, 10, 3), (2, 'brno', 49.1951, 16.6068, 20, 4), (3, 'berlin', 52.52, 13.405, 30, 5)`);
});

async function search(body: object) {
  const r = await t.engine.json!.search(parse(JSON.stringify(body)) as JsonValue, newSession());
  return r;
}

const ids = async (body: object) => (await search(body)).rows.map((row) => String(row[0]));

describe('geo_distance filter', () => {
  const anchor = { lat: 50.0755, lon: 14.4378 };
  it('keeps the documents within the distance (object, string and [lon, lat] forms; units)', async () => {
    const base = { table: 'geo', sort: [{ id: 'asc' }] };
    expect(await ids({ ...base, query: { geo_distance: { location_anchor: anchor, location_source: { lat: 'lat', lon: 'lon' }, distance: '200 km' } } })).toEqual(['1', '2']);
    expect(await ids({ ...base, query: { geo_distance: { location_anchor: '50.0755, 14.4378', location_source: 'lat, lon', distance: '300km' } } })).toEqual(['1', '2', '3']);
    expect(await ids({ ...base, query: { geo_distance: { location_anchor: [14.4378, 50.0755], location_source: ['lon', 'lat'], distance_type: 'haversine', distance: 100000 } } })).toEqual(['1']);
    expect(await ids({ ...base, query: { bool: { must: [{ geo_distance: { location_anchor: anchor, location_source: 'lat,lon', distance: '150 mi' } }, { range: { price: { gte: 15 } } }] } } })).toEqual(['2']);
  });

  it('errors name what is wrong', async () => {
    await expect(search({ table: 'geo', query: { geo_distance: { location_anchor: anchor } } })).rejects.toThrow('"location_source" property missing');
    await expect(search({ table: 'geo', query: { geo_distance: { location_anchor: anchor, location_source: 'lat,lon' } } })).rejects.toThrow('"distance" not specified');
    await expect(search({ table: 'geo', query: { geo_distance: { location_anchor: anchor, location_source: 'lat,lon', distance: '5 parsecs' } } })).rejects.toThrow('unknown distance unit: parsecs');
  });
});

describe('script_fields with expressions', () => {
  it('each field is the expression over the hit', async () => {
    const r = await search({ table: 'geo', sort: [{ id: 'asc' }], script_fields: { p2: { script: { inline: 'price*2' } }, big: { script: { inline: 'IF(qty>3, 1, 0)' } } } });
    const p2 = r.columns.findIndex((c) => c.name === 'p2');
    const big = r.columns.findIndex((c) => c.name === 'big');
    expect(r.rows.map((row) => [row[p2], row[big]])).toEqual([[20, 0], [40, 1], [60, 1]]);
    expect(r.columns[p2]!.kind).toBe('float');
  });
});

describe('sort by _geo_distance', () => {
  it('orders by the distance from the anchor, ascending unless told', async () => {
    const sorted = async (order?: string) => {
      const r = await search({ table: 'geo', sort: [{ _geo_distance: { location_anchor: { lat: 50, lon: 14 }, location_source: 'lat,lon', ...(order ? { order } : {}) } }] });
      return r.rows.map((row) => row[0]);
    };
    const asc = await sorted();
    expect(await sorted('asc')).toEqual(asc);
    expect(await sorted('desc')).toEqual([...asc].reverse());
    await expect(search({ table: 'geo', sort: [{ _geo_distance: { location_anchor: { lat: 50, lon: 14 }, location_source: 'lat,lon', unit: 'km' } }] }))
      .rejects.toThrow('"unit" property not supported with "_geo_distance"');
  });
});

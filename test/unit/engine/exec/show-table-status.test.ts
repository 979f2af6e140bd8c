// SHOW TABLE t STATUS of an RT table as searchd 29 prints it (searchd.cpp AddPlainIndexStatus,
// AddDiskIndexStatus, ServedStats_c::GetIndexQueryStats): quarry's first row was `index_type` (renamed
// table_type in 2024), it had no mem_limit, found_rows_*, *_total or per-table *_stats_ms_* rows,
// query_time_* said "avg" for searchd's "avg_sec", and command_status stayed 0.
import { expect, it } from 'vitest';
import { useTempEngine } from '../../../helpers/temp-engine.js';

const t = useTempEngine('table-status', async (t) => {
  await t.exec("CREATE TABLE t (title TEXT, a INT) rt_mem_limit='256M'");
  await t.exec("INSERT INTO t (id, title, a) VALUES (1, 'hello world', 1), (2, 'hello there', 2), (3, 'x', 3)");
});

async function status(): Promise<Map<string, string>> {
  return new Map((await t.rows('SHOW TABLE t STATUS')) as [string, string][]);
}

it('prints searchd\'s RT rows in its order', async () => {
  const names = [...(await status()).keys()];
  const stats = (p: string) => ['avg', 'min', 'max', 'pct95', 'pct99'].map((s) => `${p}_stats_ms_${s}`);
  const intervals = (p: string) => ['1min', '5min', '15min', 'total'].map((i) => `${p}_${i}`);
  expect(names).toEqual([
    'table_type', 'indexed_documents', 'indexed_bytes', 'ram_bytes', 'disk_bytes', 'disk_mapped', 'disk_mapped_cached',
    'disk_mapped_doclists', 'disk_mapped_cached_doclists', 'disk_mapped_hitlists', 'disk_mapped_cached_hitlists',
    'killed_documents', 'killed_rate', 'ram_chunk', 'ram_chunk_segments_count', 'disk_chunks', 'mem_limit', 'mem_limit_rate',
    'ram_bytes_retired', 'optimizing', 'locked', 'tid', 'tid_saved', ...intervals('query_time'), ...intervals('found_rows'),
    ...['search', 'excerpt', 'update', 'keywords', 'status', 'delete', 'insert', 'replace', 'commit', 'suggest', 'callpq',
      'getfield', 'shard_write', 'optimize'].map((c) => `command_${c}`),
    ...stats('insert_replace'), ...stats('search'), ...stats('update'),
  ]);
});

it('fills them from the table: its mem_limit, the searches\' found rows, its own commands', async () => {
  const empty = await status();
  expect(empty.get('table_type')).toBe('rt');
  expect(empty.get('mem_limit')).toBe(String(256 * 1024 * 1024));
  expect(empty.get('found_rows_total')).toBe('{"queries":0, "avg":"-", "min":"-", "max":"-", "pct95":"-", "pct99":"-"}');
  expect(empty.get('command_status')).toBe('1');
  expect(empty.get('search_stats_ms_avg')).toBe('N/A N/A N/A');
  expect(empty.get('insert_replace_stats_ms_avg')).toMatch(/^\d+\.\d{3} \d+\.\d{3} \d+\.\d{3}$/);
  await t.exec("SELECT * FROM t WHERE MATCH('hello')");
  await t.exec("SELECT * FROM t WHERE MATCH('world')");
  await t.exec('DELETE FROM t WHERE id IN (1, 2)');
  const after = await status();
  expect(after.get('found_rows_1min')).toBe('{"queries":2, "avg":1, "min":1, "max":2, "pct95":2, "pct99":2}');
  expect(after.get('found_rows_total')).toBe(after.get('found_rows_1min'));
  expect(after.get('query_time_total')).toMatch(/^\{"queries":2, "avg_sec":\d+\.\d{3}, "min_sec":\d+\.\d{3}, "max_sec":\d+\.\d{3}, "pct95_sec":\d+\.\d{3}, "pct99_sec":\d+\.\d{3}\}$/);
  expect(after.get('command_status')).toBe('2');
  // searchd's killed_rate is dead * 10000 / all, truncated: 2 of 3 is 66.66%, not 66.67%
  expect(after.get('killed_rate')).toBe('66.66%');
});

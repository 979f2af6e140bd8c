import { describe, expect, it } from 'vitest';
import type { CellKind, RowsResult } from '../../../../src/engine/result.js';
import { mergeGrouped, mergePlain } from '../../../../src/engine/distributed/merge-rows.js';
import { planShards } from '../../../../src/engine/distributed/shard-plan.js';
import { fromLocal } from '../../../../src/engine/distributed/shard-rows.js';
import { parseSql } from '../../../../src/sql/parse-sql.js';
import type { SelectStatement } from '../../../../src/sql/ast.js';

const select = (sql: string) => parseSql(sql)[0] as SelectStatement;

function shard(names: string[], kinds: CellKind[], rows: unknown[][], weights?: number[], totalFound = rows.length): ReturnType<typeof fromLocal> {
  const r: RowsResult = { kind: 'rows', columns: names.map((name, i) => ({ name, kind: kinds[i]! })), rows: rows as never, weights, meta: { total: rows.length, totalFound, totalRelation: 'eq', timeMs: 0, keywords: [] } };
  return fromLocal(r);
}

describe('the master merge', () => {
  it('sorts all shards by weight then id, keeps an id once, pages, and sums total_found', () => {
    const plan = planShards(select("SELECT id FROM d WHERE MATCH('a') LIMIT 1, 3"));
    expect(plan.shard.limit).toBe(4); // offset+limit rows from each shard are enough
    const cols = ['__c0', '__id'];
    const a = shard(cols, ['bigint', 'bigint'], [[1n, 1n], [4n, 4n]], [10, 5], 7);
    const b = shard(cols, ['bigint', 'bigint'], [[2n, 2n], [4n, 4n], [3n, 3n]], [10, 5, 8], 9);
    const m = mergePlain(plan, [a, b]);
    expect(m.rows).toEqual([[2n], [3n], [4n]]);
    expect(m.weights).toEqual([10, 8, 5]);
    expect(m.totalFound).toBe(16);
    expect(m.columns).toEqual([{ name: 'id', kind: 'bigint' }]);
  });

  it('merges groups: counts and sums added, min and max kept, avg from the merged sum and count, HAVING after', () => {
    const plan = planShards(select('SELECT gid, COUNT(*) c, SUM(p) s, MIN(p) lo, MAX(p) hi, AVG(p) a FROM d GROUP BY gid HAVING c > 2 ORDER BY c DESC'));
    const names = ['__c0', '__c1', '__c2', '__c3', '__c4', '__c5', '__cnt', '__g0'];
    const kinds: CellKind[] = ['uint', 'bigint', 'float', 'float', 'float', 'float', 'bigint', 'uint'];
    const a = shard(names, kinds, [[1, 2n, 3, 1, 2, 3, 2n, 1], [2, 1n, 5, 5, 5, 5, 1n, 2]]);
    const b = shard(names, kinds, [[1, 1n, 4, 4, 4, 4, 1n, 1], [3, 3n, 3, 1, 1, 3, 3n, 3]]);
    const m = mergeGrouped(plan, [a, b]);
    expect(m.columns.map((c) => c.name)).toEqual(['gid', 'c', 's', 'lo', 'hi', 'a']);
    expect(m.rows).toEqual([[1, 3n, 7, 1, 4, 7 / 3], [3, 3n, 3, 1, 1, 1]]);
    expect(m.totalFound).toBe(2);
  });

  it('merges GROUP N BY: counts once per shard, the N best documents of a group by the within-group order, LIMIT over rows', () => {
    const plan = planShards(select('SELECT id, gid, COUNT(*) c FROM d GROUP 2 BY gid WITHIN GROUP ORDER BY p DESC ORDER BY gid ASC LIMIT 5'));
    const names = plan.shard.items.map((i) => i.alias!);
    expect(names).toEqual(['__c0', '__c1', '__c2', '__id', '__cnt', '__g0', '__i0']);
    const kinds: CellKind[] = ['bigint', 'uint', 'bigint', 'bigint', 'bigint', 'uint', 'float'];
    // shard a: group 1 has 3 documents (2 sent), group 2 has 1; shard b: group 1 has 2, group 3 has 2
    const a = shard(names, kinds, [[1n, 1, 3n, 1n, 3n, 1, 9], [2n, 1, 3n, 2n, 3n, 1, 4], [3n, 2, 1n, 3n, 1n, 2, 1]]);
    const b = shard(names, kinds, [[5n, 1, 2n, 5n, 2n, 1, 7], [6n, 1, 2n, 6n, 2n, 1, 2], [7n, 3, 2n, 7n, 2n, 3, 5], [8n, 3, 2n, 8n, 2n, 3, 5]]);
    const m = mergeGrouped(plan, [a, b]);
    expect(m.columns.map((c) => c.name)).toEqual(['id', 'gid', 'c']);
    expect(m.rows).toEqual([[1n, 1, 5n], [5n, 1, 5n], [3n, 2, 1n], [7n, 3, 2n], [8n, 3, 2n]]);
    expect(m.totalFound).toBe(3); // groups, as a local GROUP N BY reports
  });

  it('merges GROUP_CONCAT: lists joined with its separator; the limited form re-sorted by its keys over all shards', () => {
    const plan = planShards(select("SELECT gid, GROUP_CONCAT(t ORDER BY p DESC LIMIT 2) top, GROUP_CONCAT(t SEPARATOR ';') every FROM d GROUP BY gid"));
    const names = plan.shard.items.map((i) => i.alias!);
    expect(names).toEqual(['__c0', '__c1', '__c1_k0', '__c2', '__id', '__cnt', '__g0']);
    expect(plan.shard.items[1]!.expr.text).toBe("GROUP_CONCAT(t ORDER BY p DESC SEPARATOR '\x1f' LIMIT 2)");
    const kinds: CellKind[] = ['uint', 'string', 'string', 'string', 'bigint', 'bigint', 'uint'];
    const a = shard(names, kinds, [[1, 'x\x1fy', '9.000000\x1f4.000000', 'x;y;z', 1n, 3n, 1], [2, '', '1.000000', '', 2n, 1n, 2]]);
    const b = shard(names, kinds, [[1, 'u\x1fv', '7.000000\x1f2.000000', 'u;v', 5n, 2n, 1]]);
    const m = mergeGrouped(plan, [a, b]);
    // group 2's one value is an empty string: its key list tells it from no value
    expect(m.rows).toEqual([[1, 'x,u', 'x;y;z;u;v'], [2, '', '']]);
  });
});

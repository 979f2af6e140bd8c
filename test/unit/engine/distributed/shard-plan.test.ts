// The master's page bounds before any shard is asked (found by a user pass: OPTION max_matches=0 over a
// distributed table answered an empty page with the local shard's error as a warning, and an offset
// past max_matches an empty page), as one table answers them (exec-select.ts checkMaxMatches).
import { describe, expect, it } from 'vitest';
import { planShards } from '../../../../src/engine/distributed/shard-plan.js';
import type { SelectStatement } from '../../../../src/sql/ast.js';
import { parseSql } from '../../../../src/sql/parse-sql.js';

const plan = (sql: string) => planShards(parseSql(sql)[0] as SelectStatement);

describe('planShards page bounds', () => {
  it('refuses max_matches below one and an offset at or past it with searchd\'s texts', () => {
    expect(() => plan('SELECT * FROM d OPTION max_matches=0')).toThrow('max_matches can not be less than one');
    expect(() => plan('SELECT gid, COUNT(*) FROM d GROUP BY gid OPTION max_matches=-2')).toThrow('max_matches can not be less than one');
    expect(() => plan('SELECT * FROM d LIMIT 30,5 OPTION max_matches=10')).toThrow('offset out of bounds (offset=30, max_matches=10)');
    expect(() => plan('SELECT * FROM d LIMIT 1000,10')).toThrow('offset out of bounds (offset=1000, max_matches=1000)');
  });

  it('refuses a negative offset (JSON "offset") and plans a page inside max_matches', () => {
    const st = parseSql('SELECT * FROM d LIMIT 5')[0] as SelectStatement;
    expect(() => planShards({ ...st, offset: -1 })).toThrow('offset out of bounds (offset=-1, max_matches=1000)');
    expect(plan('SELECT * FROM d LIMIT 5,5 OPTION max_matches=8')).toMatchObject({ offset: 5, maxMatches: 8 });
  });
});

// quarry as a Manticore master's agent, over the real binary-API listener: the recorded master-35
// request (filter tree with an OR and an open range, items with SUM and GROUP_CONCAT, GROUP BY) is
// answered with the groups a single table gives, in the reply layout a Manticore master reads.
import { describe, expect, it } from 'vitest';
import { agentRequest } from '../../../src/agent/agent-client.js';
import { manticoreSearchBody } from '../../../src/agent/manticore-write.js';
import { readSearchResults } from '../../../src/agent/search-write.js';
import { apiQuery } from '../../../src/agent/search-write.js';
import { Cmd, Status } from '../../../src/agent/wire.js';
import { newSession } from '../../../src/engine/session.js';
import { useEngineAgent } from '../../helpers/agent-engine.js';
import { Bytes, recordedMasterQuery } from '../../helpers/api-bytes.js';

const agent = useEngineAgent('mnt-agent', [
  'CREATE TABLE t (title text, gid uint, price float, tag string)',
  'INSERT INTO t (id, title, gid, price, tag) VALUES ' +
  "(1, 'hello a', 1, 10, 'a'), (2, 'hello b', 2, 3, 'b'), (3, 'hello c', 2, 7, 'c'), (4, 'other', 1, 1, 'd'), (5, 'hello d', 1, 20, 'e')",
]);
const to = () => agent.to();
const engine = { execute: (...a: Parameters<typeof agent.engine.execute>) => agent.engine.execute(...a) };


describe('SEARCH from a Manticore master (0x128, master 35)', () => {
  it('runs the filter tree, the items and the grouping as one table would', async () => {
    const body = Buffer.concat([new Bytes().int(35).int(1).get(), recordedMasterQuery()]);
    const reply = await agentRequest(to(), Cmd.SEARCH, 0x128, body);
    expect(reply.status).toBe(Status.OK);
    // the id attribute goes first: a Manticore master reads each match's id from it
    expect(reply.body.subarray(4 + 4 + 4 + 'title'.length + 4, 4 + 4 + 4 + 'title'.length + 4 + 4 + 2).toString()).toBe('\0\0\0\x02id');
    const [r] = readSearchResults(reply.body, 1, 35);
    const col = (name: string) => r!.attrs.findIndex((a) => a.name === name);
    const groups = r!.matches.map((m) => [m.values[col('gid')], m.values[col('total')], m.values[col('names')], m.values[col('@count')]]);
    const [local] = await engine.execute(
      "SELECT gid, SUM(price) AS total, GROUP_CONCAT(tag) AS names, COUNT(*) FROM t WHERE MATCH('hello') AND (gid=1 OR price<5) GROUP BY gid ORDER BY gid ASC",
      newSession());
    expect(local!.kind === 'rows' && local!.rows.map((row) => [row[0], row[1], row[2], Number(row[3])])).toEqual(groups);
    expect(groups.map((g) => g[0])).toEqual([1, 2]);
  });

  it('answers the quarry master\'s own encoding, and refuses a master newer than 35', async () => {
    const reply = await agentRequest(to(), Cmd.SEARCH, 0x128, manticoreSearchBody([apiQuery({ indexes: 't', query: 'hello', sort: 4, sortBy: '@id asc' })]));
    const [r] = readSearchResults(reply.body, 1, 35);
    expect(r!.matches.map((m) => Number(m.id))).toEqual([1, 2, 3, 5]);
    const newer = await agentRequest(to(), Cmd.SEARCH, 0x128, Buffer.concat([new Bytes().int(36).int(1).get(), recordedMasterQuery()]));
    expect(newer.status).toBe(Status.ERROR);
    expect(newer.body.toString('utf8', 4)).toBe('master-agent version mismatch; update me first, then update master!');
  });
});

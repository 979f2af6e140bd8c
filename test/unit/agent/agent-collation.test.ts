// The collation a master sends in SEARCH's master extension (searchd's api_search.cpp: the agent's query
// takes it; a master older than version 1 sends none and the agent's collation_server applies): the same
// ORDER BY over a STRING attribute in byte order under binary, case-folded under libc_ci.
import { describe, expect, it } from 'vitest';
import { agentRequest } from '../../../src/agent/agent-client.js';
import { manticoreSearchBody } from '../../../src/agent/manticore-write.js';
import { readSearchQuery } from '../../../src/agent/search-request.js';
import { apiQuery, readSearchResults } from '../../../src/agent/search-write.js';
import { ApiReader, Cmd, Status } from '../../../src/agent/wire.js';
import { remoteQuery } from '../../../src/engine/distributed/remote-query.js';
import { parseSql } from '../../../src/sql/parse-sql.js';
import { useEngineAgent } from '../../helpers/agent-engine.js';

const agent = useEngineAgent('collation-agent', [
  'CREATE TABLE t (title text, s string)',
  "INSERT INTO t (id, title, s) VALUES (1, 'x', 'apple'), (2, 'x', 'Banana'), (3, 'x', 'APPLE'), (4, 'x', '_under')",
]);

async function order(collation?: number): Promise<number[]> {
  const q = apiQuery({ indexes: 't', sort: 4, sortBy: 's asc', ...(collation === undefined ? {} : { collation }) });
  const reply = await agentRequest(agent.to(), Cmd.SEARCH, 0x128, manticoreSearchBody([q]));
  expect(reply.status).toBe(Status.OK);
  return readSearchResults(reply.body, 1, 35)[0]!.matches.map((m) => Number(m.id));
}

describe('the master\'s collation at an agent', () => {
  it('orders strings by it, query by query on one connection', async () => {
    expect(await order(3)).toEqual([3, 2, 4, 1]); // binary
    expect(await order(0)).toEqual([4, 1, 3, 2]); // libc_ci
    expect(await order()).toEqual([4, 1, 3, 2]); // unset: written as libc_ci
  });

  it('travels in the master extension from a distributed table\'s statement', () => {
    const st = parseSql('SELECT id FROM t ORDER BY s ASC')[0] as Parameters<typeof remoteQuery>[0];
    const q = remoteQuery(st, 't', 'utf8_general_ci');
    const w = manticoreSearchBody([q]);
    expect(readSearchQuery(new ApiReader(w.subarray(8)), 0x128, 35).collation).toBe(2);
  });
});

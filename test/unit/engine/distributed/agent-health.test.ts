import { describe, expect, it } from 'vitest';
import { failureCounter, hostStats, mirrorOrder, noteFailure, noteSuccess } from '../../../../src/engine/distributed/agent-health.js';
import { parseAgent } from '../../../../src/engine/distributed/dist-def.js';

describe('mirror choice by ha_strategy', () => {
  it('roundrobin starts one mirror further each query', () => {
    const a = parseAgent('d', 'rr1:1|rr2:2|rr3:3:t', 'agent');
    const firsts = [0, 1, 2, 3].map(() => mirrorOrder(a, 'roundrobin')[0]!.host);
    expect(firsts).toEqual(['rr1', 'rr2', 'rr3', 'rr1']);
  });

  it('random covers every mirror; nodeads puts a dead mirror last, noerrors a failing one', () => {
    const a = parseAgent('d', 'nd1:1|nd2:2:t', 'agent');
    const seen = new Set(Array.from({ length: 40 }, () => mirrorOrder(a, 'random')[0]!.host));
    expect(seen).toEqual(new Set(['nd1', 'nd2']));
    noteFailure(a.mirrors[0]!, 'connect() failed: errno=111, Connection refused');
    for (let i = 0; i < 10; i++) expect(mirrorOrder(a, 'noerrors')[0]!.host).toBe('nd2');
    noteFailure(a.mirrors[0]!, 'connect() failed: errno=111, Connection refused');
    noteFailure(a.mirrors[0]!, 'connect() failed: errno=111, Connection refused');
    for (let i = 0; i < 10; i++) expect(mirrorOrder(a, 'nodeads').map((m) => m.host)).toEqual(['nd2', 'nd1']);
    noteSuccess(a.mirrors[0]!, 3, false);
    expect(hostStats(a.mirrors[0]!)).toMatchObject({ errorsARow: 0, counters: { connect_failures: 3, succeeded_queries: 1 } });
  });

  it('files each failure under the counter Manticore keeps for it', () => {
    expect(['connect and query timed out', 'query timed out', 'connect() failed: errno=111, Connection refused',
      'agent closed connection', 'remote error: x', 'receiving failure (errno=104, msg=Connection reset by peer)'].map(failureCounter))
      .toEqual(['connect_timeouts', 'query_timeouts', 'connect_failures', 'unexpected_closings', 'wrong_replies', 'network_errors']);
  });
});

// HTTP connections and the requests on them in the activity list (SHOW THREADS), whichever server answers.
import { EventEmitter } from 'node:events';
import type { Socket } from 'node:net';
import { describe, expect, it } from 'vitest';
import { metrics } from '../../../src/metrics/metrics.js';
import { connectionId, trackConnection, trackLeanRequest } from '../../../src/server/http-activity.js';

function fakeSocket(port: number): Socket {
  return Object.assign(new EventEmitter(), { remoteAddress: '127.0.0.1', remotePort: port }) as unknown as Socket;
}

describe('trackLeanRequest', () => {
  it('shows a lean request on its connection until it ends, then counts it done', () => {
    const socket = fakeSocket(40001);
    trackConnection(socket);
    const id = connectionId(socket)!;
    const mine = () => metrics.activities().find((a) => a.connId === id)!;
    const ended = trackLeanRequest(socket, 'POST', '/search');
    expect(mine()).toMatchObject({ proto: 'http', from: '127.0.0.1:40001', info: 'POST /search', jobsDone: 0 });
    ended();
    expect(mine()).toMatchObject({ info: '', jobsDone: 1 });
    socket.emit('close');
    expect(metrics.activities().find((a) => a.connId === id)).toBeUndefined();
  });

  it('does nothing for a socket it does not know', () => {
    expect(() => trackLeanRequest(fakeSocket(40002), 'POST', '/sql')()).not.toThrow();
  });
});

import { EventEmitter } from 'node:events';
import { metricsRegistry } from '../observability/metrics';
import { countSocketConnections } from './socket-connections';

const open = async () => (await metricsRegistry.getSingleMetric('beacon_socket_connections')!.get()).values[0]?.value;

describe('countSocketConnections', () => {
  it('counts sockets as they connect and disconnect', async () => {
    const io = new EventEmitter();
    countSocketConnections(io as never);
    const [a, b] = [new EventEmitter(), new EventEmitter()];
    io.emit('connection', a);
    io.emit('connection', b);
    expect(await open()).toBe(2);
    a.emit('disconnect');
    a.emit('disconnect'); // counted once however often it says so
    expect(await open()).toBe(1);
    b.emit('disconnect');
    expect(await open()).toBe(0);
  });
});

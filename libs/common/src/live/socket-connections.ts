import { exposeMetrics, socketConnected, socketDisconnected } from '../observability/metrics';

interface CountedSocket {
  once(event: 'disconnect', listener: () => void): unknown;
}

/**
 * Keeps beacon_socket_connections at the number of sockets `io` has accepted (past its handshake) and not lost. The
 * gauge is served from here on (0 until a socket connects), by the process that counts sockets and no other.
 */
export function countSocketConnections(io: { on(event: 'connection', listener: (socket: CountedSocket) => void): unknown }) {
  exposeMetrics('sockets');
  io.on('connection', (socket) => {
    socketConnected();
    socket.once('disconnect', socketDisconnected);
  });
}

import { socketConnected, socketDisconnected } from '../observability/metrics';

interface CountedSocket {
  once(event: 'disconnect', listener: () => void): unknown;
}

/** Keeps beacon_socket_connections at the number of sockets `io` has accepted (past its handshake) and not lost. */
export function countSocketConnections(io: { on(event: 'connection', listener: (socket: CountedSocket) => void): unknown }) {
  io.on('connection', (socket) => {
    socketConnected();
    socket.once('disconnect', socketDisconnected);
  });
}

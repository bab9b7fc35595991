import { useEffect } from 'react';
import { EventEmitter } from 'node:events';
import type { ServerToClientEvents } from '@beacon/contracts';

/**
 * A stand-in for '@/app/socket' in the alert specs, the user's and the admin console's (jsdom has no gateway):
 *   jest.mock('@/app/socket', () => jest.requireActual('@/test/fake-socket'));
 * Handlers subscribe for real, so a spec can play the server with `serverSends` and drop or restore the
 * connection with `setConnected`.
 */
const socket = Object.assign(new EventEmitter(), {
  connected: false,
  watched: [] as string[],
});
const emitLocal = EventEmitter.prototype.emit.bind(socket);
// What the screen sends to the gateway (alert:watch) is recorded, not dispatched to local handlers.
(socket as unknown as { emit: (event: string, ...args: unknown[]) => boolean }).emit = (event, ...args) => {
  if (event === 'alert:watch') socket.watched.push(String(args[0]));
  return true;
};

export const getSocket = () => socket;

export function useSocketEvent<E extends keyof ServerToClientEvents>(event: E, handler: ServerToClientEvents[E]) {
  useEffect(() => {
    socket.on(event, handler as never);
    return () => {
      socket.off(event, handler as never);
    };
  }, [event, handler]);
}

export function serverSends<E extends keyof ServerToClientEvents>(event: E, ...args: Parameters<ServerToClientEvents[E]>) {
  emitLocal(event, ...args);
}

export function setConnected(up: boolean) {
  socket.connected = up;
  emitLocal(up ? 'connect' : 'disconnect');
}

/** Between tests: disconnected, no handlers left from an unmounted screen. */
export function resetFakeSocket() {
  socket.removeAllListeners();
  socket.connected = false;
  socket.watched = [];
}

import { useEffect } from 'react';
import { io, type Socket } from 'socket.io-client';
import type { ClientToServerEvents, ServerToClientEvents } from '@beacon/contracts';
import { accessToken, auth } from '@/features/auth/auth-client';

export type BeaconSocket = Socket<ServerToClientEvents, ClientToServerEvents>;

let socket: BeaconSocket | null = null;

/**
 * One Socket.IO connection for the tab, through the edge's /socket.io. The handshake carries the access
 * token (read fresh on every (re)connect); anonymous visitors join only the public room.
 */
export function getSocket(): BeaconSocket {
  if (!socket) {
    socket = io({
      path: '/socket.io',
      transports: ['websocket'],
      auth: (cb) => {
        accessToken().then(
          (token) => cb(token ? { token } : {}),
          () => cb({}),
        );
      },
    });
    // A new session (sign-in, sign-out, refreshed token) must reach the gateway's rooms.
    auth.onAuthStateChange((event) => {
      if (event === 'SIGNED_IN' || event === 'SIGNED_OUT' || event === 'TOKEN_REFRESHED') {
        if (event !== 'TOKEN_REFRESHED' && socket) socket.disconnect().connect();
      }
    });
  }
  return socket;
}

/** Subscribes a component to one typed server event for as long as it is mounted. */
export function useSocketEvent<E extends keyof ServerToClientEvents>(event: E, handler: ServerToClientEvents[E]) {
  useEffect(() => {
    const s = getSocket();
    s.on(event, handler as never);
    return () => {
      s.off(event, handler as never);
    };
  }, [event, handler]);
}

import { useEffect } from 'react';
import type { Socket } from 'socket.io-client';
import type { ClientToServerEvents, ServerToClientEvents } from '@beacon/contracts';
import { accessToken, auth } from '@/features/auth/auth-client';

type RealSocket = Socket<ServerToClientEvents, ClientToServerEvents>;
/** What the app uses of its connection: typed events in and out, and whether it is up. */
export type BeaconSocket = Pick<RealSocket, 'on' | 'off' | 'emit' | 'connected'>;
type Listener = (...args: never[]) => void;

/**
 * The tab's connection, as the app holds it from the first call on: listeners and messages are kept until the
 * Socket.IO client (a chunk of its own, about 12 KB gzip, kept out of the landing entry's budget) has loaded and
 * connected, then handed to it, so no component waits for it nor misses an event.
 */
class DeferredSocket {
  private real: RealSocket | null = null;
  private readonly listeners: [string, Listener][] = [];
  private readonly queued: [string, unknown[]][] = [];

  constructor(load: Promise<RealSocket>) {
    load.then((real) => {
      this.real = real;
      for (const [event, fn] of this.listeners) real.on(event as never, fn as never);
      for (const [event, args] of this.queued.splice(0)) (real.emit as (e: string, ...a: unknown[]) => void)(event, ...args);
    });
  }

  get connected(): boolean {
    return this.real?.connected ?? false;
  }

  on(event: string, fn: Listener) {
    this.listeners.push([event, fn]);
    this.real?.on(event as never, fn as never);
    return this;
  }

  off(event: string, fn: Listener) {
    const at = this.listeners.findIndex(([e, f]) => e === event && f === fn);
    if (at >= 0) this.listeners.splice(at, 1);
    this.real?.off(event as never, fn as never);
    return this;
  }

  emit(event: string, ...args: unknown[]) {
    if (this.real) (this.real.emit as (e: string, ...a: unknown[]) => void)(event, ...args);
    else this.queued.push([event, args]);
    return this;
  }
}

async function connect(): Promise<RealSocket> {
  const { io } = await import('socket.io-client');
  const real: RealSocket = io({
    path: '/socket.io',
    transports: ['websocket'],
    auth: (cb) => {
      accessToken().then(
        (token) => cb(token ? { token } : {}),
        () => cb({}),
      );
    },
  });
  // A new session (sign-in, sign-out) must reach the gateway's rooms.
  auth.onAuthStateChange((event) => {
    if (event === 'SIGNED_IN' || event === 'SIGNED_OUT') real.disconnect().connect();
  });
  return real;
}

let socket: DeferredSocket | null = null;

/**
 * One Socket.IO connection for the tab, through the edge's /socket.io. The handshake carries the access
 * token (read fresh on every (re)connect); anonymous visitors join only the public room.
 */
export function getSocket(): BeaconSocket {
  socket ??= new DeferredSocket(connect());
  return socket as unknown as BeaconSocket;
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

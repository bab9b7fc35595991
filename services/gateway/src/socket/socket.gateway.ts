import { Inject, Injectable, Logger, OnApplicationBootstrap, OnApplicationShutdown, Optional } from '@nestjs/common';
import { createAdapter } from '@socket.io/redis-adapter';
import type { Server as HttpServer } from 'node:http';
import type Redis from 'ioredis';
import { decodeJwt } from 'jose';
import { Server, Socket } from 'socket.io';
import { AuthUser, checkSessionLive, InvalidTokenError, isVoidedByRevocation, Revocation, SessionRevocations, TokenVerifier } from '@beacon/auth';
import { AlertProgress, ClientToServerEvents, isStaff, progressCacheKey, Rooms, ServerToClientEvents, socketIoKey } from '@beacon/contracts';
import { closeRedis, countSocketConnections, createRedis, InjectRedis } from '@beacon/common';
import { GatewayEnv } from '../config/env.dto';

interface SocketData {
  user: AuthUser | null;
}

type BeaconSocket = Socket<ClientToServerEvents, ServerToClientEvents, Record<string, never>, SocketData>;

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/**
 * The Socket.IO server. Rooms are assigned by the server from the verified token and nothing else: every
 * socket joins `public`; a signed-in one joins `user:<id>`; staff (any staff role, a viewer too: issue #38) also join
 * `admins`, whose events are the console's live view (alerts, delivery counts, a report's arrival: ids and counts,
 * nothing a viewer may not read). Clients cannot join rooms. Events arrive from services and workers through Redis (redis-emitter -> redis-adapter), so any
 * number of gateway replicas deliver them.
 */
@Injectable()
export class SocketGateway implements OnApplicationBootstrap, OnApplicationShutdown {
  private io?: Server<ClientToServerEvents, ServerToClientEvents, Record<string, never>, SocketData>;
  private readonly pub: Redis;
  private readonly sub: Redis;
  private readonly verifier: TokenVerifier;
  private readonly revocations: SessionRevocations;
  private stopListening?: () => Promise<void>;
  private readonly logger = new Logger('SocketGateway');

  constructor(
    private readonly env: GatewayEnv,
    @InjectRedis() private readonly redis: Redis,
    @Inject(TokenVerifier) verifier?: TokenVerifier,
    @Optional() revocations?: SessionRevocations,
  ) {
    this.verifier = verifier ?? new TokenVerifier(env.JWKS_URL);
    this.revocations = revocations ?? new SessionRevocations(redis);
    // Pub/sub channel names are not keys: no ioredis keyPrefix; the adapter's `key` carries REDIS_PREFIX.
    this.pub = createRedis(env.REDIS_URL);
    this.sub = this.pub.duplicate();
  }

  attach(http: HttpServer) {
    const io = new Server<ClientToServerEvents, ServerToClientEvents, Record<string, never>, SocketData>(http, {
      path: '/socket.io',
      serveClient: false,
      cors: this.env.SOCKET_CORS_ORIGINS ? { origin: this.env.SOCKET_CORS_ORIGINS.split(',').map((s) => s.trim()), credentials: true } : undefined,
    });
    io.adapter(createAdapter(this.pub, this.sub, { key: socketIoKey(this.env.REDIS_PREFIX) }));
    io.use((socket, next) => {
      this.authenticate(socket).then(
        () => next(),
        (e: Error & { data?: unknown }) => next(e),
      );
    });
    io.on('connection', (socket) => this.onConnection(socket));
    countSocketConnections(io);
    this.io = io;
  }

  /** A missing token is an anonymous visitor (public room only); a bad or expired one is refused. */
  private async authenticate(socket: BeaconSocket) {
    const token = (socket.handshake.auth as { token?: unknown } | undefined)?.token;
    if (token === undefined || token === null || token === '') {
      socket.data.user = null;
      return;
    }
    try {
      socket.data.user = await this.verifier.verify(String(token));
    } catch (e) {
      const code = e instanceof InvalidTokenError ? e.code : 'token_invalid';
      const err = new Error(code === 'token_expired' ? 'Access token expired' : 'Invalid access token') as Error & { data?: unknown };
      err.data = { code };
      throw err;
    }
    try {
      await checkSessionLive(this.revocations, socket.data.user, false);
    } catch (e) {
      const err = new Error((e as Error).message) as Error & { data?: unknown };
      err.data = { code: (e as { code?: string }).code ?? 'session_revoked' };
      throw err;
    }
    // A socket outlives its token otherwise: disconnect at expiry; the client reconnects with a fresh one.
    const exp = decodeJwt(String(token)).exp;
    if (exp) {
      const timer = setTimeout(() => socket.disconnect(true), Math.max(0, exp * 1000 - Date.now()));
      timer.unref();
      socket.on('disconnect', () => clearTimeout(timer));
    }
  }

  private onConnection(socket: BeaconSocket) {
    const user = socket.data.user;
    void socket.join(Rooms.public);
    if (user) void socket.join(Rooms.user(user.id));
    if (isStaff(user?.role)) void socket.join(Rooms.admins);

    // Staff opening a running alert get its latest progress at once instead of waiting for the next tick.
    socket.on('alert:watch', (alertId) => {
      if (!isStaff(socket.data.user?.role) || typeof alertId !== 'string' || !UUID.test(alertId)) return;
      void this.redis.get(progressCacheKey(alertId)).then(
        (raw) => {
          if (raw) socket.emit('alert:progress', JSON.parse(raw) as AlertProgress);
        },
        () => undefined,
      );
    });
  }

  /**
   * Sockets of a session or user identity voided are dropped at once, on every replica (each hears the revocation).
   * A revocation published while this replica's subscriber was reconnecting is not heard: then every signed-in socket
   * is checked against the keys instead.
   */
  async onApplicationBootstrap() {
    this.stopListening = await this.revocations.subscribe(
      (change) => this.dropVoided(change),
      () => void this.recheckAll(),
    );
  }

  private signedInSockets(): BeaconSocket[] {
    return [...(this.io?.of('/').sockets.values() ?? [])].filter((s) => s.data.user);
  }

  private dropVoided(change: Revocation) {
    for (const socket of this.signedInSockets()) {
      if (isVoidedByRevocation(socket.data.user!, change)) socket.disconnect(true);
    }
  }

  /** One revocation check per signed-in socket of this replica; a socket that cannot be checked stays (a Redis outage). */
  async recheckAll() {
    const sockets = this.signedInSockets();
    const BATCH = 200;
    for (let i = 0; i < sockets.length; i += BATCH) {
      await Promise.all(
        sockets.slice(i, i + BATCH).map(async (socket) => {
          try {
            if (await this.revocations.isRevoked(socket.data.user!)) socket.disconnect(true);
          } catch (e) {
            this.logger.warn(`could not recheck a socket after the revocation channel reconnected: ${(e as Error).message}`);
          }
        }),
      );
    }
  }

  async onApplicationShutdown() {
    await this.stopListening?.();
    await new Promise<void>((resolve) => (this.io ? this.io.close(() => resolve()) : resolve()));
    await Promise.all([this.pub, this.sub].map((c) => closeRedis(c)));
  }
}

/// <reference path="./s3rver.d.ts" />
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type S3rver from '@20minutes/s3rver';
import { freePort } from './redis-server';

/**
 * An S3-compatible server of a test's own on a free loopback port: S3rver (the maintained fork, `@20minutes/s3rver`),
 * which implements the S3 REST API over a directory and checks every request's AWS signature (V4 and V2, header and
 * presigned query forms) against its one key pair. Objects are files, so a restart on the same directory keeps them.
 * What it does not do (see docs/deploy.md): conditional writes (`If-None-Match: *` on PUT is ignored), versioning,
 * multi-node durability.
 */
export class TestS3Server {
  readonly bucket = 'beacon-uploads';
  readonly accessKeyId = 'S3RVER';
  readonly secretAccessKey = 'S3RVER';
  port = 0;
  private server?: S3rver;
  private dir = '';

  get endpoint() {
    return `http://127.0.0.1:${this.port}`;
  }

  /** The incidents service's variables for this server. */
  get vars(): Record<string, string> {
    return {
      UPLOADS_DRIVER: 's3',
      UPLOADS_S3_ENDPOINT: this.endpoint,
      UPLOADS_S3_REGION: 'us-east-1',
      UPLOADS_S3_BUCKET: this.bucket,
      UPLOADS_S3_FORCE_PATH_STYLE: 'true',
      UPLOADS_S3_ACCESS_KEY_ID: this.accessKeyId,
      UPLOADS_S3_SECRET_ACCESS_KEY: this.secretAccessKey,
    };
  }

  /** Starts it (again on the same port and directory after stop()). */
  async start(): Promise<this> {
    this.port ||= await freePort();
    this.dir ||= mkdtempSync(join(tmpdir(), 'beacon-s3-'));
    // loaded here, not by every spec that imports @beacon/testing
    const { default: S3rverServer } = await import('@20minutes/s3rver');
    this.server = new S3rverServer({
      address: '127.0.0.1',
      port: this.port,
      directory: this.dir,
      silent: true,
      resetOnClose: false,
      allowMismatchedSignatures: false,
      configureBuckets: [{ name: this.bucket }],
    });
    await this.server.run();
    return this;
  }

  /** Stops it, dropping open connections (the objects stay on disk). */
  async stop(): Promise<void> {
    const server = this.server;
    this.server = undefined;
    if (!server) return;
    const closed = server.close();
    server.httpServer?.closeAllConnections();
    await closed;
  }

  async close(): Promise<void> {
    await this.stop();
    if (this.dir) rmSync(this.dir, { recursive: true, force: true });
  }
}

import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

export interface ThrowawayCertificate {
  key: string;
  cert: string;
  /** The certificate as a file, for NODE_EXTRA_CA_CERTS of child processes. */
  certFile: string;
  /** Deletes the files. */
  remove(): void;
}

/**
 * A self-signed certificate for 127.0.0.1 and localhost (EC P-256, valid 2 days), made with the `openssl` CLI, for local TLS
 * servers such as FakePushService's `tls` mode. Clients trust it explicitly (PushHttpClient `ca`, NODE_EXTRA_CA_CERTS).
 */
export function throwawayCertificate(): ThrowawayCertificate {
  const dir = mkdtempSync(join(tmpdir(), 'beacon-tls-'));
  try {
    execFileSync(
      'openssl',
      [
        'req',
        '-x509',
        '-newkey',
        'ec',
        '-pkeyopt',
        'ec_paramgen_curve:prime256v1',
        '-nodes',
        '-days',
        '2',
        '-subj',
        '/CN=127.0.0.1',
        '-addext',
        'subjectAltName=IP:127.0.0.1,DNS:localhost',
        '-keyout',
        join(dir, 'key.pem'),
        '-out',
        join(dir, 'cert.pem'),
      ],
      { stdio: 'ignore' },
    );
  } catch (e) {
    rmSync(dir, { recursive: true, force: true });
    throw new Error(`making a local TLS certificate needs openssl on the PATH (${(e as Error).message})`);
  }
  return {
    key: readFileSync(join(dir, 'key.pem'), 'utf8'),
    cert: readFileSync(join(dir, 'cert.pem'), 'utf8'),
    certFile: join(dir, 'cert.pem'),
    remove: () => rmSync(dir, { recursive: true, force: true }),
  };
}

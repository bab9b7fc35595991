import { isIP } from 'node:net';
import nodemailer, { Transporter } from 'nodemailer';
import { AppError, publicAddresses } from '@beacon/common';

/** Nodemailer's pooled SMTP options, without its types' many overloads. */
export type SmtpOptions = ReturnType<typeof smtpTransportOptions> & { tls?: { servername: string } };

/**
 * The pooled SMTP transport's options for the relay at `smtpUrl`. nodemailer takes either a URL or an options
 * object: given `{ url }` it replaces the whole object with what the URL says (so `pool` and the bound were lost,
 * one connection per message), and a second argument only sets defaults for each message. So the URL is read
 * here into the object: host, port, smtps for TLS from the start, user and password, and any options in its query
 * string (e.g. `?ignoreTLS=true`).
 */
export function smtpTransportOptions(smtpUrl: string, maxConnections: number) {
  const url = new URL(smtpUrl);
  const query = Object.fromEntries([...url.searchParams].map(([k, v]) => [k, v === 'true' ? true : v === 'false' ? false : /^\d+$/.test(v) ? Number(v) : v]));
  return {
    ...query,
    host: url.hostname.replace(/^\[(.*)\]$/, '$1'),
    ...(url.port ? { port: Number(url.port) } : {}),
    secure: url.protocol === 'smtps:',
    ...(url.username ? { auth: { user: decodeURIComponent(url.username), pass: decodeURIComponent(url.password) } } : {}),
    pool: true as const,
    maxConnections,
    connectionTimeout: 10_000,
    greetingTimeout: 10_000,
    socketTimeout: 30_000,
  };
}

/**
 * smtpTransportOptions() for a relay an administrator configured: its host resolved once and refused unless public
 * (or allow-listed), and the connection made to that address, TLS still checked against the host name, so a name
 * that resolves elsewhere when connecting (DNS rebinding) cannot point the dispatcher at an internal service.
 */
export async function guardedSmtpOptions(smtpUrl: string, maxConnections: number, allowHosts: string[]): Promise<SmtpOptions> {
  let options: SmtpOptions;
  try {
    options = smtpTransportOptions(smtpUrl, maxConnections);
  } catch {
    throw new AppError(400, 'invalid_url', 'The SMTP URL is not valid');
  }
  if (!/^smtps?:$/.test(new URL(smtpUrl).protocol)) throw new AppError(400, 'invalid_url', 'The SMTP URL must start with smtp:// or smtps://');
  const host = options.host;
  const port = String(options.port ?? (options.secure ? 465 : 587));
  const [{ address }] = await publicAddresses(host, port, { allowHosts });
  return isIP(host) ? options : { ...options, host: address, tls: { servername: host } };
}

/** The relay's URL with its password hidden, for the settings screen. */
export function maskSmtpPassword(smtpUrl: string): string {
  try {
    const url = new URL(smtpUrl);
    if (url.password) url.password = '••••••••';
    return url.toString();
  } catch {
    return '';
  }
}

/** Connects, greets, upgrades to TLS and signs in as a send would, and sends nothing (Test Connection). */
export async function verifyRelay(options: SmtpOptions): Promise<{ ok: boolean; message: string }> {
  // One connection, not a pool: a check, not a send (nodemailer's overloads do not type a spread of pool options).
  const transport: Transporter = nodemailer.createTransport({ ...options, pool: false } as never);
  try {
    await transport.verify();
    return { ok: true, message: `Mail relay ${options.tls?.servername ?? options.host} accepted the connection and the sign-in` };
  } catch (e) {
    const err = e as Error & { code?: string; responseCode?: number };
    return {
      ok: false,
      message: `Mail relay check failed: ${err.responseCode ? `${err.responseCode} ` : ''}${err.code ?? ''} ${err.message}`.replace(/\s+/g, ' ').trim(),
    };
  } finally {
    transport.close();
  }
}

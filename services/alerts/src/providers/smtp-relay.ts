import { isIP } from 'node:net';
import nodemailer, { Transporter } from 'nodemailer';
import { AppError, publicAddresses, within } from '@beacon/common';

/** How a query option of the relay URL is read; a value it cannot read is refused, never passed on as text. */
type OptionReader = (value: string, key: string) => boolean | string;

const bool: OptionReader = (value, key) => {
  if (value === 'true' || value === 'false') return value === 'true';
  throw new AppError(400, 'invalid_url', `The SMTP URL's ${key} must be true or false`);
};
const oneOf =
  (...allowed: string[]): OptionReader =>
  (value, key) => {
    if (allowed.includes(value)) return value;
    throw new AppError(400, 'invalid_url', `The SMTP URL's ${key} must be one of ${allowed.join(', ')}`);
  };
const hostName: OptionReader = (value, key) => {
  if (/^[A-Za-z0-9.-]{1,253}$/.test(value)) return value;
  throw new AppError(400, 'invalid_url', `The SMTP URL's ${key} must be a host name, e.g. beacon.example.org`);
};

/**
 * The only query options a relay URL may carry. nodemailer reads many more, and some of them take the transport
 * elsewhere: `url` replaces every option (the host the SSRF rule checked included), `proxy` connects to the proxy
 * first, `sendmail` with `path`/`args` spawns a program, `service` picks a well-known host. So nothing outside this
 * list is ever handed to it.
 */
const RELAY_QUERY_OPTIONS: Record<string, OptionReader> = {
  /** STARTTLS required (the connection fails rather than signing in in clear). */
  requireTLS: bool,
  /** STARTTLS never attempted, for a relay on a trusted local network. */
  ignoreTLS: bool,
  /** The name this client greets the relay with (EHLO). */
  name: hostName,
  /** The SASL mechanism, when the relay offers several. */
  authMethod: oneOf('PLAIN', 'LOGIN', 'CRAM-MD5', 'XOAUTH2'),
  /** Accept a certificate no trusted CA signed (a test relay); TLS stays on. */
  'tls.rejectUnauthorized': bool,
  /** The oldest TLS version accepted. */
  'tls.minVersion': oneOf('TLSv1.2', 'TLSv1.3'),
};

export const RELAY_QUERY_OPTION_NAMES = Object.keys(RELAY_QUERY_OPTIONS);

interface RelayQueryOptions {
  requireTLS?: boolean;
  ignoreTLS?: boolean;
  name?: string;
  authMethod?: string;
  tls?: { rejectUnauthorized?: boolean; minVersion?: string };
}

/** The relay URL's query options, each read by its own rule; any other key is refused with 400 `smtp_option_not_allowed`. */
export function relayQueryOptions(url: URL): RelayQueryOptions {
  const options: Record<string, unknown> & { tls?: Record<string, unknown> } = {};
  for (const [key, value] of url.searchParams) {
    const read = Object.hasOwn(RELAY_QUERY_OPTIONS, key) ? RELAY_QUERY_OPTIONS[key] : undefined;
    if (!read) {
      throw new AppError(
        400,
        'smtp_option_not_allowed',
        `The SMTP URL may not set "${key.slice(0, 40)}": its query string takes only ${RELAY_QUERY_OPTION_NAMES.join(', ')}`,
      );
    }
    const [group, option] = key.startsWith('tls.') ? ['tls', key.slice(4)] : [undefined, key];
    if (group) options.tls = { ...options.tls, [option]: read(value, key) };
    else options[option] = read(value, key);
  }
  return options as RelayQueryOptions;
}

/** Nodemailer's pooled SMTP options, without its types' many overloads. */
export type SmtpOptions = ReturnType<typeof smtpTransportOptions> & { tls?: { servername?: string } };

/**
 * The pooled SMTP transport's options for the relay at `smtpUrl`. nodemailer takes either a URL or an options
 * object: given `{ url }` it replaces the whole object with what the URL says (so `pool` and the bound were lost,
 * one connection per message), and a second argument only sets defaults for each message. So the URL is read
 * here into the object: host, port, smtps for TLS from the start, user and password, and the allowed options of its
 * query string (e.g. `?ignoreTLS=true`, see RELAY_QUERY_OPTIONS).
 */
export function smtpTransportOptions(smtpUrl: string, maxConnections: number) {
  const url = new URL(smtpUrl);
  return {
    ...relayQueryOptions(url),
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
 * that resolves elsewhere when connecting (DNS rebinding) cannot point the dispatcher at an internal service. A query
 * option outside the allow-list is refused (400 `smtp_option_not_allowed`), when saved and when sending alike.
 */
export async function guardedSmtpOptions(smtpUrl: string, maxConnections: number, allowHosts: string[]): Promise<SmtpOptions> {
  let url: URL;
  try {
    url = new URL(smtpUrl);
  } catch {
    throw new AppError(400, 'invalid_url', 'The SMTP URL is not valid');
  }
  if (!/^smtps?:$/.test(url.protocol)) throw new AppError(400, 'invalid_url', 'The SMTP URL must start with smtp:// or smtps://');
  const options: SmtpOptions = smtpTransportOptions(smtpUrl, maxConnections);
  const host = options.host;
  const port = String(options.port ?? (options.secure ? 465 : 587));
  const [{ address }] = await publicAddresses(host, port, { allowHosts });
  return isIP(host) ? options : { ...options, host: address, tls: { ...options.tls, servername: host } };
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

/**
 * Connects, greets, upgrades to TLS and signs in as a send would, and sends nothing (Test Connection). No step waits
 * longer than `deadlineMs`, so a check the caller gave up on does not hold a connection long after.
 */
export async function verifyRelay(options: SmtpOptions, deadlineMs: number): Promise<{ ok: boolean; message: string }> {
  const transport: Transporter = nodemailer.createTransport(relayCheckOptions(options, deadlineMs) as never);
  try {
    await transport.verify();
    return { ok: true, message: `Mail relay ${relayName(options)} accepted the connection and the sign-in` };
  } catch (e) {
    return { ok: false, message: relayFailure('Mail relay check failed', e) };
  } finally {
    transport.close();
  }
}

/**
 * One connection, not a pool: a check, not a send (nodemailer's overloads do not type a spread of pool options). No
 * step waits past a second after the deadline: the deadline, not a step, is what the caller hears about.
 */
function relayCheckOptions(options: SmtpOptions, deadlineMs: number) {
  const cap = (ms: number) => Math.min(ms, deadlineMs + 1_000);
  return {
    ...options,
    pool: false,
    connectionTimeout: cap(options.connectionTimeout),
    greetingTimeout: cap(options.greetingTimeout),
    socketTimeout: cap(options.socketTimeout),
  };
}

/** The relay's refusal as a person reads it: its reply code, nodemailer's error code and message. */
function relayFailure(what: string, e: unknown): string {
  const err = e as Error & { code?: string; responseCode?: number };
  return `${what}: ${err.responseCode ? `${err.responseCode} ` : ''}${err.code ?? ''} ${err.message}`.replace(/\s+/g, ' ').trim();
}

/** The relay's name as the administrator wrote it (the options may hold the address it resolved to). */
const relayName = (options: SmtpOptions) => options.tls?.servername ?? options.host;

/**
 * Test Connection for the relay at `smtpUrl`: the URL checked (its options, its host public or allow-listed) and the
 * relay verified, all within `deadlineMs`. Past it: 502 `mail_relay_timeout` (the relay failed us, as the geocoder's 502), naming the relay.
 */
export function testRelay(smtpUrl: string, allowHosts: string[], deadlineMs: number): Promise<{ ok: boolean; message: string }> {
  return withinRelayDeadline(smtpUrl, allowHosts, deadlineMs, 'connect, TLS, greeting and sign-in', (options) => verifyRelay(options, deadlineMs));
}

/**
 * Sends one message through the relay at `smtpUrl` (Send test e-mail), checked as a send is and within `deadlineMs`
 * like Test Connection: the relay's own answer (accepted, or its refusal) is the outcome.
 */
export function sendThroughRelay(
  smtpUrl: string,
  allowHosts: string[],
  deadlineMs: number,
  message: { from: string; to: string; subject: string; text: string },
): Promise<{ ok: boolean; message: string; messageId?: string }> {
  return withinRelayDeadline(smtpUrl, allowHosts, deadlineMs, 'connect, sign-in and sending the message', async (options) => {
    const transport: Transporter = nodemailer.createTransport(relayCheckOptions(options, deadlineMs) as never);
    try {
      const sent = await transport.sendMail(message);
      return { ok: true, message: `Mail relay ${relayName(options)} accepted the test e-mail for ${message.to}`, messageId: sent.messageId };
    } catch (e) {
      return { ok: false, message: relayFailure('Mail relay refused the test e-mail', e) };
    } finally {
      transport.close();
    }
  });
}

/** `step` on the relay at `smtpUrl`, its URL checked first, the whole within `deadlineMs` (else 502 `mail_relay_timeout`). */
async function withinRelayDeadline<T>(
  smtpUrl: string,
  allowHosts: string[],
  deadlineMs: number,
  stepName: string,
  step: (options: SmtpOptions) => Promise<T>,
): Promise<T> {
  let name: string | undefined;
  const checked = await within(
    (async () => {
      const options = await guardedSmtpOptions(smtpUrl, 1, allowHosts);
      name = relayName(options);
      return step(options);
    })(),
    deadlineMs,
  );
  if (checked.done) return checked.value;
  const doing = name ? stepName : 'resolving its host name';
  throw new AppError(
    502,
    'mail_relay_timeout',
    `Mail relay ${name ?? ''} did not finish the check (${doing}) within ${Math.round(deadlineMs / 1000)} s`.replace(/\s+/g, ' '),
    { timeoutSeconds: Math.round(deadlineMs / 1000) },
  );
}

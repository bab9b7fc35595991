import { PROVIDER_CALLBACK_PATHS, type ProviderCallbackUrls } from '@beacon/contracts';

/** Where the alerts API answers, seen from outside: the public endpoints providers call sit under it. */
const ALERTS_API_PREFIX = '/api/alerts';

/**
 * The URLs an admin gives the providers (status callbacks, inbound messages, the relay's event webhook), built from
 * PUBLIC_URL as the providers will reach Beacon: Twilio signs the very URL it calls, so these must be the ones it is given.
 */
export function providerCallbackUrls(publicUrl: string): ProviderCallbackUrls {
  const base = `${publicUrl.replace(/\/+$/, '')}${ALERTS_API_PREFIX}`;
  return Object.fromEntries(Object.entries(PROVIDER_CALLBACK_PATHS).map(([name, path]) => [name, `${base}${path}`])) as unknown as ProviderCallbackUrls;
}

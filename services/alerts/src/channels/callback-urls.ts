import type { ProviderCallbackUrls } from '@beacon/contracts';
import { providerCallbackUrls } from '../settings/callback-urls';

/**
 * The public URL a provider posts `which` to (the one Admin Settings shows), naming the delivery in `?d=` when given:
 * Twilio signs the URL it was given, query included, and the receipt endpoint reads the delivery from it.
 */
export function providerCallbackUrl(publicUrl: string, which: keyof ProviderCallbackUrls, deliveryId?: string): string {
  const url = providerCallbackUrls(publicUrl)[which];
  return deliveryId ? `${url}?d=${encodeURIComponent(deliveryId)}` : url;
}

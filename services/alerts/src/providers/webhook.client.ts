import { AppError, assertPublicUrl } from '@beacon/common';
import { classifyStatus, networkFailure, ProviderError, retryAfterOf } from './provider-error';

export interface WebhookResult {
  status: number;
  body: Record<string, unknown> | null;
}

/**
 * POSTs JSON to a user-configured webhook: the URL is checked against private addresses on every call
 * (not only when saved: DNS can change), redirects are not followed (they could point anywhere), and the
 * call carries an Idempotency-Key so a retried batch is recognisable by the receiver.
 */
export async function postWebhook(
  rawUrl: string,
  payload: unknown,
  opts: { timeoutMs: number; idempotencyKey: string; allowHosts: string[] },
): Promise<WebhookResult> {
  let url: URL;
  try {
    url = await assertPublicUrl(rawUrl, opts.allowHosts);
  } catch (e) {
    throw new ProviderError('permanent', e instanceof AppError ? `Webhook URL refused: ${e.message}` : 'Webhook URL refused');
  }
  let res: Response;
  try {
    res = await fetch(url, {
      method: 'POST',
      redirect: 'manual',
      headers: { 'content-type': 'application/json', 'idempotency-key': opts.idempotencyKey, 'user-agent': 'Beacon-Alerts/1.2' },
      body: JSON.stringify(payload),
      signal: AbortSignal.timeout(opts.timeoutMs),
    });
  } catch (e) {
    throw networkFailure(e, 'Webhook call failed');
  }
  const text = await res.text().catch(() => '');
  const failure = classifyStatus(res.status);
  if (failure) {
    throw new ProviderError(failure, `Webhook answered ${res.status}${text ? `: ${text.slice(0, 200)}` : ''}`, res.status, retryAfterOf(res.status, res.headers.get('retry-after')));
  }
  let body: Record<string, unknown> | null = null;
  try {
    body = text ? JSON.parse(text) : null;
  } catch {
    body = null;
  }
  return { status: res.status, body };
}

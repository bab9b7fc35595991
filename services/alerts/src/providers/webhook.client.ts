import { AppError, GuardedResponse, guardedRequest, ResolveAll } from '@beacon/common';
import { classifyStatus, networkFailure, ProviderError, retryAfterOf } from './provider-error';

export interface WebhookResult {
  status: number;
  body: Record<string, unknown> | null;
}

/**
 * POSTs JSON to a user-configured webhook: the URL is checked against private addresses on every call
 * (not only when saved: DNS can change), and the connection goes to an address that passed that check
 * (guardedRequest: no second resolution to rebind). Redirects are not followed (they could point anywhere),
 * and the call carries an Idempotency-Key so a retried batch is recognisable by the receiver.
 */
export async function postWebhook(
  rawUrl: string,
  payload: unknown,
  opts: { timeoutMs: number; idempotencyKey: string; allowHosts: string[]; resolve?: ResolveAll },
): Promise<WebhookResult> {
  let res: GuardedResponse;
  try {
    res = await guardedRequest(rawUrl, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'idempotency-key': opts.idempotencyKey, 'user-agent': 'Beacon-Alerts/1.2' },
      body: JSON.stringify(payload),
      timeoutMs: opts.timeoutMs,
      allowHosts: opts.allowHosts,
      resolve: opts.resolve,
    });
  } catch (e) {
    if (e instanceof AppError) throw new ProviderError('permanent', `Webhook URL refused: ${e.message}`);
    throw networkFailure(e, 'Webhook call failed');
  }
  const failure = classifyStatus(res.status);
  if (failure) {
    const retryAfter = res.headers['retry-after'];
    throw new ProviderError(
      failure,
      `Webhook answered ${res.status}${res.text ? `: ${res.text.slice(0, 200)}` : ''}`,
      res.status,
      retryAfterOf(res.status, retryAfter),
    );
  }
  let body: Record<string, unknown> | null = null;
  try {
    body = res.text && !res.truncated ? JSON.parse(res.text) : null;
  } catch {
    body = null;
  }
  return { status: res.status, body };
}

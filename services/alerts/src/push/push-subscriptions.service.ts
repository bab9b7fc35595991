import { Injectable } from '@nestjs/common';
import { assertPublicUrl, badRequest } from '@beacon/common';
import type { AuthUser } from '@beacon/auth';
import { AlertsDeliveryEnv } from '../config/delivery-env';
import { ServerKeys } from '../keys/server-keys';
import { PreferencesService } from '../preferences/preferences.service';
import { PushSubscriptionDto } from './push-subscriptions.dto';
import { PushSubscriptionsRepository } from './push-subscriptions.repository';

/**
 * Every alert makes the dispatcher call each endpoint, so an endpoint on any host would let one account aim Beacon's
 * traffic at a third party. `.suffix` entries match hosts under that domain on a dot boundary, `*` anything.
 */
export function isPushServiceHost(hostname: string, allowed: string[]): boolean {
  const host = hostname.toLowerCase().replace(/\.$/, '');
  return allowed.some((entry) => entry === '*' || (entry.startsWith('.') ? host.endsWith(entry) && host.length > entry.length : host === entry));
}

@Injectable()
export class PushSubscriptionsService {
  constructor(
    private readonly repo: PushSubscriptionsRepository,
    private readonly preferences: PreferencesService,
    private readonly keys: ServerKeys,
    private readonly env: AlertsDeliveryEnv,
  ) {}

  async publicKey() {
    return { publicKey: (await this.keys.vapid()).publicKey };
  }

  /**
   * The dispatcher will POST to this endpoint, so it is an outgoing request to a user-supplied URL:
   * https only, and never to a private or loopback address unless allow-listed (tests, local push services).
   */
  async register(user: AuthUser, dto: PushSubscriptionDto, userAgent: string | null) {
    let parsed: URL;
    try {
      parsed = new URL(dto.endpoint);
    } catch {
      throw badRequest('The push endpoint is not a valid URL', 'invalid_push_endpoint');
    }
    const allowListed = this.env.webhookAllowHosts.some((h) => h === '*' || h === parsed.hostname || h === parsed.host);
    if (parsed.protocol !== 'https:' && !allowListed) throw badRequest('A push endpoint must be an https URL', 'invalid_push_endpoint');
    // before any DNS look-up: a host that is no push service is refused without Beacon touching it
    if (!allowListed && !isPushServiceHost(parsed.hostname, this.env.pushEndpointHosts)) {
      throw badRequest('This push endpoint is not on a push service browsers use', 'unsupported_push_service');
    }
    await assertPublicUrl(dto.endpoint, this.env.webhookAllowHosts);
    if (Buffer.from(dto.keys.p256dh, 'base64url').length !== 65 || Buffer.from(dto.keys.auth, 'base64url').length !== 16) {
      throw badRequest('The subscription keys are not a valid P-256 key and auth secret', 'invalid_push_keys');
    }
    await this.preferences.ensureDefaults(user);
    const { id } = await this.repo.upsert(
      { userId: user.id, endpoint: dto.endpoint, p256dh: dto.keys.p256dh, auth: dto.keys.auth, userAgent: userAgent?.slice(0, 300) ?? null },
      this.env.PUSH_SUBSCRIPTIONS_PER_USER,
    );
    return { id, endpoint: dto.endpoint };
  }

  async remove(user: AuthUser, endpoint: string) {
    return { removed: (await this.repo.remove(user.id, endpoint)) > 0 };
  }
}

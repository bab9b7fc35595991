import { Injectable } from '@nestjs/common';
import { assertPublicUrl, badRequest } from '@beacon/common';
import type { AuthUser } from '@beacon/auth';
import { AlertsDeliveryEnv } from '../config/delivery-env';
import { ServerKeys } from '../keys/server-keys';
import { PreferencesService } from '../preferences/preferences.service';
import { pushEndpointRefusal } from './push-endpoint-policy';
import { PushSubscriptionDto } from './push-subscriptions.dto';
import { PushSubscriptionsRepository } from './push-subscriptions.repository';

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
   * The dispatcher will POST to this endpoint, so it is an outgoing request to a user-supplied URL: https on a push
   * service browsers use (push-endpoint-policy), and never to a private or loopback address unless allow-listed
   * (tests, local push services).
   */
  async register(user: AuthUser, dto: PushSubscriptionDto, userAgent: string | null) {
    const refusal = pushEndpointRefusal(dto.endpoint, this.env);
    if (refusal) throw badRequest(refusal.message, refusal.code);
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

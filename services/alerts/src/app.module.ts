import { TemplatesController } from './templates/templates.controller';
import { TemplatesRepository } from './templates/templates.repository';
import { TemplatesService } from './templates/templates.service';
import { DynamicModule, Module } from '@nestjs/common';
import { TypeOrmModule } from '@nestjs/typeorm';
import { AuthModule } from '@beacon/auth';
import { QueueName } from '@beacon/contracts';
import { dataSourceOptions, EnvModule, HealthModule, loggingModule, QueueModule, RateLimitModule, RedisModule } from '@beacon/common';
import { alertsRateLimits } from './config/rate-limits';
import { AlertsDomainModule } from './alerts.module';
import { AdminAlertsController } from './alerts/admin-alerts.controller';
import { DeliveryReceiptsController } from './alerts/delivery-receipts.controller';
import { HelpRequestsController } from './alerts/help-requests.controller';
import { MyAlertsController } from './alerts/my-alerts.controller';
import { TestAlertController } from './alerts/test-alert.controller';
import { TestAlertService } from './alerts/test-alert.service';
import { CapController } from './cap/cap.controller';
import { GeocodeController } from './geocode/geocode.controller';
import { PlacesController } from './geocode/places.controller';
import { GeocoderService } from './geocode/geocoder.service';
import { CapRepository } from './cap/cap.repository';
import { CapFeedClient } from './cap-sources/cap-feed.client';
import { CapIngestService } from './cap-sources/cap-ingest.service';
import { CapPollSchedule } from './cap-sources/cap-poll.schedule';
import { CapSourcesController } from './cap-sources/cap-sources.controller';
import { CapSourcesRepository } from './cap-sources/cap-sources.repository';
import { CapSourcesService } from './cap-sources/cap-sources.service';
import { deliveryEnvModule } from './config/delivery-env';
import { AlertsEnv } from './config/env.dto';
import { alertsDatabase } from './database';
import { IncidentVerifiedHandler } from './inbox/incident-verified.handler';
import { LiveModule } from './live/live.module';
import { ContactGroupsModule } from './contact-groups/contact-groups.module';
import { ReachController } from './reach/reach.controller';
import { ReachRepository } from './reach/reach.repository';
import { ReachService } from './reach/reach.service';
import { PreferencesController } from './preferences/preferences.controller';
import { PushSubscriptionsController } from './push/push-subscriptions.controller';
import { SettingsController } from './settings/settings.controller';
import { ChannelHealthController } from './channel-health/channel-health.controller';
import { ChannelCountsRepository } from './channel-health/channel-counts.repository';
import { ChannelHealthService } from './channel-health/channel-health.service';
import { ApprovalPolicyController } from './approvals/approval-policy.controller';
import { ApprovalsController } from './approvals/approvals.controller';
import { ApprovalPolicyService } from './approvals/approval-policy.service';
import { ApprovalsRepository } from './approvals/approvals.repository';
import { ApprovalsService } from './approvals/approvals.service';
import { TestAlertsController } from './test-alerts/test-alerts.controller';
import { TestAlertsService } from './test-alerts/test-alerts.service';
import { CallbackSignatures } from './receipts/callback-signatures';
import { EmailEventsController } from './receipts/email-events.controller';
import { ProviderCallbacksService } from './receipts/provider-callbacks.service';
import { ProviderSecretsRepository } from './receipts/provider-secrets.repository';
import { ReceiptsService } from './receipts/receipts.service';
import { RepliesRepository } from './receipts/replies.repository';
import { RepliesService } from './receipts/replies.service';
import { TwilioCallbacksController } from './receipts/twilio-callbacks.controller';
import { WebhookCallbacksController } from './receipts/webhook-callbacks.controller';

@Module({})
export class AppModule {
  static register(env: AlertsEnv): DynamicModule {
    return {
      module: AppModule,
      imports: [
        EnvModule.forRoot(env),
        loggingModule('alerts', env.LOG_LEVEL),
        TypeOrmModule.forRoot({ ...dataSourceOptions(env.DATABASE_URL, alertsDatabase), retryAttempts: 5, retryDelay: 2000 }),
        RedisModule.forRoot(env.REDIS_URL, { keyPrefix: `${env.REDIS_PREFIX}:` }),
        RateLimitModule.forRoot(alertsRateLimits(env)),
        HealthModule.register({ database: true, redis: true }),
        AuthModule.register({ jwksUrl: env.JWKS_URL, revocationStalenessSeconds: env.REVOCATION_STALENESS_SECONDS }),
        // The alerts service works one queue itself: domain events addressed to it (incident.verified).
        QueueModule.register({
          redisUrl: env.REDIS_URL,
          redisPrefix: env.REDIS_PREFIX,
          workers: { queues: [{ name: QueueName.AlertsInbox, concurrency: 4 }] },
        }),
        LiveModule.register(env),
        deliveryEnvModule(env),
        AlertsDomainModule,
        // issue #42: contact groups (/admin/contact-groups)
        ContactGroupsModule,
      ],
      // Order matters: static paths (me/..., admin/..., push/..., deliveries/..., cap/..., templates/...) before AdminAlertsController's /:id.
      controllers: [
        CapController,
        MyAlertsController,
        PreferencesController,
        PlacesController,
        PushSubscriptionsController,
        DeliveryReceiptsController,
        SettingsController,
        ChannelHealthController,
        ApprovalPolicyController,
        TestAlertController,
        TestAlertsController,
        HelpRequestsController,
        GeocodeController,
        TemplatesController,
        CapSourcesController,
        ApprovalsController,
        // issue #39: the providers' receipts and replies (public, signed)
        WebhookCallbacksController,
        TwilioCallbacksController,
        EmailEventsController,
        // issue #42: the alert page's map of reach (GET /:id/reach)
        ReachController,
        AdminAlertsController,
      ],
      providers: [
        TestAlertService,
        TestAlertsService,
        IncidentVerifiedHandler,
        CapRepository,
        GeocoderService,
        TemplatesService,
        TemplatesRepository,
        CapSourcesRepository,
        CapFeedClient,
        CapIngestService,
        CapSourcesService,
        CapPollSchedule,
        ApprovalPolicyService,
        ApprovalsRepository,
        ApprovalsService,
        ProviderSecretsRepository,
        CallbackSignatures,
        ReceiptsService,
        RepliesRepository,
        RepliesService,
        ProviderCallbacksService,
        // issue #39: provider health per channel
        ChannelHealthService,
        ChannelCountsRepository,
        ReachRepository,
        ReachService,
      ],
    };
  }
}

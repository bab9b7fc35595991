import { RevisionsRepository } from './alerts/revisions.repository';
import { AlertRevisionsService } from './alerts/revisions.service';
import { Module } from '@nestjs/common';
import { AlertsRepository } from './alerts/alerts.repository';
import { AlertsService } from './alerts/alerts.service';
import { AudienceRepository } from './alerts/audience.repository';
import { AudiencePreviewService } from './alerts/audience-preview.service';
import { AudienceGuard } from './alerts/audience-guard.service';
import { AuditRepository } from './alerts/audit.repository';
import { DeliveryActionsService } from './alerts/delivery-actions.service';
import { DeliveryReportService } from './alerts/delivery-report.service';
import { HelpRequestsRepository } from './alerts/help-requests.repository';
import { OperationsRepository } from './alerts/operations.repository';
import { OperationsService } from './alerts/operations.service';
import { DeliveriesRepository } from './deliveries/deliveries.repository';
import { ServerKeys } from './keys/server-keys';
import { DispatchOutbox } from './outbox/dispatch-outbox';
import { PreferencesRepository } from './preferences/preferences.repository';
import { PreferencesService } from './preferences/preferences.service';
import { PushSubscriptionsRepository } from './push/push-subscriptions.repository';
import { PushSubscriptionsService } from './push/push-subscriptions.service';
import { SettingsRepository } from './settings/settings.repository';
import { ChannelHealthRepository } from './settings/channel-health.repository';
import { TwilioClient } from './providers/twilio.client';
import { SettingsService } from './settings/settings.service';
import { ApprovalPolicyRepository } from './alerts/approval-policy.repository';
import { DeliveryLedgerRepository } from './deliveries/delivery-ledger.repository';
import { HelpRequestsService } from './alerts/help-requests.service';
import { TestAlertsRepository } from './test-alerts/test-alerts.repository';

const DOMAIN_PROVIDERS = [
  AlertsRepository,
  AlertsService,
  AudiencePreviewService,
  AudienceGuard,
  AudienceRepository,
  AuditRepository,
  DeliveryActionsService,
  DeliveryReportService,
  DispatchOutbox,
  OperationsRepository,
  OperationsService,
  DeliveriesRepository,
  HelpRequestsRepository,
  ServerKeys,
  PreferencesRepository,
  RevisionsRepository,
  AlertRevisionsService,
  PreferencesService,
  PushSubscriptionsRepository,
  PushSubscriptionsService,
  SettingsRepository,
  SettingsService,
  // read by AlertsService at every first send, which both entry points hold
  ApprovalPolicyRepository,
  // issue #38: the delivery list and report, help requests for staff
  DeliveryLedgerRepository,
  HelpRequestsService,
  // issue #38: the recurring test alert's schedule and group (settings in the API, runs in the dispatcher's sweep)
  TestAlertsRepository,
  // issue #39: each channel's last test and last send error (written by the senders, read by provider health)
  ChannelHealthRepository,
  // issue #39: the Twilio-compatible API (the senders', and Test Connection's in the settings)
  TwilioClient,
];

/** The alert domain's providers, shared by the HTTP service and the dispatcher (which uses the same schema). */
@Module({
  providers: DOMAIN_PROVIDERS,
  exports: DOMAIN_PROVIDERS,
})
export class AlertsDomainModule {}

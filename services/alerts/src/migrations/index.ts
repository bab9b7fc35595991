import { CreateAlerts1763800000000 } from './1763800000000-CreateAlerts';
import { FastEligibility1763900000000 } from './1763900000000-FastEligibility';
import { HotDeliveryUpdates1763900000001 } from './1763900000001-HotDeliveryUpdates';
import { DigestDeliveries1764000000000 } from './1764000000000-DigestDeliveries';
import { WeekendHold1764000000001 } from './1764000000001-WeekendHold';
import { HeldDeliveries1764100000000 } from './1764100000000-HeldDeliveries';
import { PushSubscriptionHealth1764200000000 } from './1764200000000-PushSubscriptionHealth';
import { IdempotencyFingerprint1764300000000 } from './1764300000000-IdempotencyFingerprint';
import { PushAcceptedDevices1764300000001 } from './1764300000001-PushAcceptedDevices';
import { ResponseTallies1764300000002 } from './1764300000002-ResponseTallies';
import { AlertAudit1764300000003 } from './1764300000003-AlertAudit';
import { EmailSettings1764300000004 } from './1764300000004-EmailSettings';
import { DispatchBatchSizes1764400000000 } from './1764400000000-DispatchBatchSizes';
import { DeliveryOperations1764500000000 } from './1764500000000-DeliveryOperations';
import { Reminders1764500000001 } from './1764500000001-Reminders';
import { ConcernedCount1764500000002 } from './1764500000002-ConcernedCount';
import { AlertRevisions1764600000000 } from './1764600000000-AlertRevisions';
import { AlertPolygons1764610000000 } from './1764610000000-AlertPolygons';
import { AlertLanguages1764620000000 } from './1764620000000-AlertLanguages';
import { AlertTemplates1764620000001 } from './1764620000001-AlertTemplates';
import { CapSources1764630000000 } from './1764630000000-CapSources';
import { StripedRollups1764640000000 } from './1764640000000-StripedRollups';
import { NoPushSuccessWrites1764640000001 } from './1764640000001-NoPushSuccessWrites';
import { RecipientLookups1764640000002 } from './1764640000002-RecipientLookups';
import { DispatchRequestId1764660000000 } from './1764660000000-DispatchRequestId';
import { AlertRevisionCounter1764650000000 } from './1764650000000-AlertRevisionCounter';
import { DispatchOutbox1764670000000 } from './1764670000000-DispatchOutbox';
import { RedisEpochRecord1764680000000 } from './1764680000000-RedisEpochRecord';
import { SendReview1764690000000 } from './1764690000000-SendReview';
import { DeliveryLedger1764700000000 } from './1764700000000-DeliveryLedger';
import { AllClearTranslations1764720000000 } from './1764720000000-AllClearTranslations';
import { ClosedLoops1764760000000 } from './1764760000000-ClosedLoops';
import { ReplyAudit1764760000001 } from './1764760000001-ReplyAudit';
import { PlacesAndDismissals1764780000000 } from './1764780000000-PlacesAndDismissals';
import { RecurringTestAlert1764740000000 } from './1764740000000-RecurringTestAlert';
import { ContactGroups1764820000000 } from './1764820000000-ContactGroups';
import { AlertGroups1764830000000 } from './1764830000000-AlertGroups';
import { MultiAreas1764790000000 } from './1764790000000-MultiAreas';
import { ExternalRecipients1764830000001 } from './1764830000001-ExternalRecipients';

/** In order. Never edit a shipped migration: add a new one. */
export const migrations = [
  CreateAlerts1763800000000,
  FastEligibility1763900000000,
  HotDeliveryUpdates1763900000001,
  DigestDeliveries1764000000000,
  WeekendHold1764000000001,
  HeldDeliveries1764100000000,
  PushSubscriptionHealth1764200000000,
  IdempotencyFingerprint1764300000000,
  PushAcceptedDevices1764300000001,
  ResponseTallies1764300000002,
  AlertAudit1764300000003,
  EmailSettings1764300000004,
  DispatchBatchSizes1764400000000,
  DeliveryOperations1764500000000,
  Reminders1764500000001,
  ConcernedCount1764500000002,
  AlertRevisions1764600000000,
  AlertPolygons1764610000000,
  AlertLanguages1764620000000,
  AlertTemplates1764620000001,
  CapSources1764630000000,
  StripedRollups1764640000000,
  NoPushSuccessWrites1764640000001,
  RecipientLookups1764640000002,
  AlertRevisionCounter1764650000000,
  DispatchRequestId1764660000000,
  DispatchOutbox1764670000000,
  RedisEpochRecord1764680000000,
  SendReview1764690000000,
  DeliveryLedger1764700000000,
  AllClearTranslations1764720000000,
  RecurringTestAlert1764740000000,
  ClosedLoops1764760000000,
  ReplyAudit1764760000001,
  PlacesAndDismissals1764780000000,
  MultiAreas1764790000000,
  ContactGroups1764820000000,
  AlertGroups1764830000000,
  ExternalRecipients1764830000001,
];

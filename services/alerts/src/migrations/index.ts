import { CreateAlerts1763800000000 } from './1763800000000-CreateAlerts';
import { FastEligibility1763900000000 } from './1763900000000-FastEligibility';
import { HotDeliveryUpdates1763900000001 } from './1763900000001-HotDeliveryUpdates';
import { DigestDeliveries1764000000000 } from './1764000000000-DigestDeliveries';
import { WeekendHold1764000000001 } from './1764000000001-WeekendHold';
import { HeldDeliveries1764100000000 } from './1764100000000-HeldDeliveries';
import { PushSubscriptionHealth1764200000000 } from './1764200000000-PushSubscriptionHealth';
import { IdempotencyFingerprint1764300000000 } from './1764300000000-IdempotencyFingerprint';
import { DispatchBatchSizes1764400000000 } from './1764400000000-DispatchBatchSizes';

/** In order. Never edit a shipped migration: add a new one. */
export const migrations = [CreateAlerts1763800000000, FastEligibility1763900000000, HotDeliveryUpdates1763900000001, DigestDeliveries1764000000000, WeekendHold1764000000001, HeldDeliveries1764100000000, PushSubscriptionHealth1764200000000, IdempotencyFingerprint1764300000000, DispatchBatchSizes1764400000000];

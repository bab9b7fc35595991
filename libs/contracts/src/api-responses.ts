import type {
  AdminAlert,
  AlertAudience,
  AlertAuditEntry,
  AlertOperations,
  AlertPreferences,
  AlertVersion,
  ApprovalPolicy,
  ChannelCounts,
  DeliveryMessageKind,
  DeliveryStatus,
  HelpRequest,
  Page,
  UnreadCount,
  UserAlert,
} from './alerts';
import type { DeliveryChannel } from './alert-vocabulary';
import type { GeocodeResult } from './alert-area';
import type { ChannelHealthReport, DeliveryReceipt, ProviderCallbackUrls, ProviderReply, ReceiptsApplied, SmsProvider, TwilioSettingsView } from './receipts';
import type { CapOrigin, CapPollResult, CapSource } from './cap-sources';
import type { CommunityComment, CommunityPost, CommunityStats, LikeResult, MyCommunityActivityPage, UserPoints } from './community';
import type { ErrorCode, IdentityErrorCode } from './errors';
import type { AlertTemplate } from './languages';
import type { Incident, IncidentPage, ModerationQueueCount, ModerationQueuePage, PossibleDuplicate, PublicIncident, UploadResult } from './incidents';
import type { Product, ProductAnalytics, ProductPage, StoreStats } from './store';
import type { Camera, TrafficEvent } from './traffic';
import type { Role } from './roles';
import type { TestGroup, TestGroupMembership, TestSchedule } from './test-alerts';
import type {
  ContactGroup,
  ContactGroupAuditPage,
  ContactGroupMember,
  ContactGroupMembersPage,
  ContactImportPreview,
  ContactImportResult,
} from './contact-groups';
import type { AlertReach } from './reach';

/*
 * What the HTTP routes answer, by name: the OpenAPI document's response types. A route names one with
 * @ApiReturns('Name') (libs/common openapi), which the compiler checks against what the handler returns; the
 * document's JSON Schemas are generated from these declarations. Types the web already speaks live beside their
 * feature (alerts.ts, incidents.ts ...); those below are the answers nothing else named yet.
 */

/** The body of every error of the Beacon services (libs/common ErrorBody). `code` is stable and machine-readable. */
export interface ApiErrorBody {
  statusCode: number;
  code: ErrorCode;
  message: string;
  details?: unknown;
}

/** An error of the auth API (/auth/v1), in the hosted auth service's shape its client library parses. */
export interface AuthApiError {
  code: number | IdentityErrorCode;
  error_code?: IdentityErrorCode;
  msg?: string;
  message?: string;
}

// ---------------------------------------------------------------- alerts

/** One delivery of an alert on the admin alert page (GET /api/alerts/:id/deliveries). */
export interface AlertDeliveryRow {
  id: string;
  userId: string;
  channel: DeliveryChannel;
  /** A delivery being sent reads pending. */
  status: DeliveryStatus;
  attempts: number;
  error: string | null;
  /** Held for quiet hours, a digest or a quiet weekend until then; null when not held. */
  heldUntil: string | null;
  sentAt: string | null;
  deliveredAt: string | null;
  readAt: string | null;
  createdAt: string;
  inDigest: boolean;
  /**
   * Whom it went to on its channel, masked (issue #38): the phone for SMS and voice (+1•••••4567), the e-mail address for e-mail
   * (j•••@example.com), the browsers subscribed for push ("Chrome on Android"); null when none is on file now.
   */
  contact?: string | null;
  /** What it carried: the alert, an update, the all-clear, a fallback ... (DELIVERY_MESSAGE_KIND_LABELS). */
  kind?: DeliveryMessageKind;
  /** The alert's version it carried (1 as first sent; each update and the all-clear add one). */
  version?: number;
  /** The error of its last failed attempt, kept when a later attempt succeeded; null when no attempt failed. */
  lastError?: string | null;
  /**
   * What the provider's receipt said of it (issue #39; optional until the list returns it): delivered, bounced, no
   * answer ... (DELIVERY_RECEIPT_LABELS), when, and the provider's reason; null while no receipt came.
   */
  receipt?: DeliveryReceipt | null;
  receiptAt?: string | null;
  receiptReason?: string | null;
  /** The status in words (DELIVERY_STATUS_LABELS): "Sent to provider" until a receipt says more. */
  statusLabel?: string;
}

/** The dashboard's figures (GET /api/alerts/stats). */
export interface AlertStats {
  totalSent: number;
  activeAlerts: number;
  drafts: number;
  totalDeliveries: number;
  deliveries: ChannelCounts;
  successRate: number;
  perDay: { day: string; total: number; successful: number; failed: number }[];
  timeZone: string;
}

/** "I'm Safe" recorded. */
export interface AlertReadReceipt {
  alertId: string;
  read: true;
  readAt: string;
}

/** An ended alert put away from my feed (POST /api/alerts/me/alerts/:id/dismiss, issue #40); it is read too. */
export interface AlertDismissal {
  alertId: string;
  dismissedAt: string;
}

/** The delivery settings as admins see them; secrets only masked. */
export interface DeliverySettings {
  push: { enabled: boolean; username: string; apiKeySet: boolean; apiKeyMasked: string };
  /**
   * `secretSet`: the receipt secret that signs the webhook's receipts and replies (X-Beacon-Signature) is set; the
   * secret itself is shown once, in `newSecret` of the PUT that generated it (`webhook.rotateSecret: true`).
   */
  webhook: { enabled: boolean; url: string; secretSet?: boolean; newSecret?: string };
  /** `eventsKeySet`: the relay's event-webhook signing key (bounces, complaints, deliveries) is set; write-only. */
  email: { enabled: boolean; url: string; from: string; eventsKeySet?: boolean };
  /** Which provider sends SMS (issue #39): the generic webhook or the Twilio-compatible account. */
  sms?: { provider: SmsProvider };
  /** The Twilio-compatible account (SMS and voice); the auth token write-only. */
  twilio?: TwilioSettingsView;
  /** Voice calls (through the Twilio-compatible account). */
  voice?: { enabled: boolean };
  /** What to give the providers: their status-callback, inbound and event-webhook URLs. */
  callbackUrls?: ProviderCallbackUrls;
  updatedAt: string | null;
  /**
   * Why each channel cannot deliver as saved (null: it can), as the audience preview and the senders say it, e.g. a
   * relay at an address the SSRF rule refuses (issue #38).
   */
  readiness?: { push: string | null; sms: string | null; email: string | null; voice?: string | null };
  /** The settings that come from the environment and cannot be changed here. */
  environment: string[];
}

/** What a connection test found; `message` says why when `ok` is false. */
export interface ConnectionTestResult {
  ok: boolean;
  provider?: string;
  status?: number | null;
  message: string;
  /** Whether a provider was called: false when only keys and stored subscriptions were read (issue #38). */
  contacted?: boolean;
  /** What the test looked at: vapid_keys, subscriptions, provider_sign_in. */
  checked?: string[];
  /** Push: the browsers a push would go to now, the people they belong to, every stored one, and those failing. */
  devices?: { browsers: number; people: number; subscribed: number; failing: number };
  /** A test e-mail the relay accepted: its Message-ID. */
  messageId?: string;
}

/** A test alert sent to the admin who asked for it, on the channels that could carry it. */
export interface TestAlertResult {
  ok: boolean;
  channels: DeliveryChannel[];
  alert: AdminAlert;
}

// ---------------------------------------------------------------- identity (/auth/v1, the hosted auth API's shapes)

export interface IdentityFactor {
  id: string;
  friendly_name?: string;
  factor_type: 'totp';
  status: 'unverified' | 'verified';
  created_at?: string;
  updated_at?: string;
}

export interface IdentityLink {
  identity_id: string;
  id: string;
  user_id: string;
  identity_data: { email: string; email_verified: boolean; phone_verified: boolean; sub: string };
  provider: string;
  last_sign_in_at?: string;
  created_at?: string;
  updated_at?: string;
  email: string;
}

/** A user as the auth API presents one. */
export interface IdentityUser {
  id: string;
  aud: string;
  role: string;
  email: string;
  email_confirmed_at?: string;
  phone: string;
  confirmation_sent_at?: string;
  confirmed_at?: string;
  recovery_sent_at?: string;
  new_email?: string;
  email_change_sent_at?: string;
  last_sign_in_at?: string;
  banned_until?: string;
  app_metadata: { provider: string; providers: string[]; role: Role };
  user_metadata: Record<string, unknown>;
  identities: IdentityLink[];
  factors?: IdentityFactor[];
  created_at?: string;
  updated_at?: string;
  is_anonymous: boolean;
}

/** A session: the access token (ES256 JWT), its lifetime and the opaque refresh token, rotated on every use. */
export interface IdentitySession {
  access_token: string;
  token_type: 'bearer';
  expires_in: number;
  expires_at: number;
  refresh_token: string;
  user: IdentityUser;
  weak_password?: { message: string; reasons: string[] };
}

export interface IdentityUserList {
  users: IdentityUser[];
  aud: string;
}

export interface TotpEnrollment {
  id: string;
  type: string;
  friendly_name: string;
  totp: { qr_code: string; secret: string; uri: string };
}

export interface MfaChallenge {
  id: string;
  type: string;
  expires_at: number;
}

/** Which sign-in methods exist (GET /auth/v1/settings). */
export interface AuthSettings {
  external: { email: boolean; phone: boolean; anonymous_users: boolean };
  disable_signup: boolean;
  mailer_autoconfirm: boolean;
  phone_autoconfirm: boolean;
  sms_provider: string;
  saml_enabled: boolean;
}

/** The public keys access tokens are verified with (RFC 7517). */
export interface JsonWebKeySet {
  keys: { kty?: string; kid?: string; alg?: string; use?: string; crv?: string; x?: string; y?: string; [member: string]: unknown }[];
}

// ---------------------------------------------------------------- traffic

/** One pull of the 511 source, with what it did to cameras and events. */
export interface IngestRun {
  id: string;
  source: string;
  reason: string;
  status: 'ok' | 'partial' | 'failed' | 'rate_limited';
  startedAt: string;
  finishedAt: string;
  report: Record<string, unknown>;
}

export interface Items<T> {
  items: T[];
}

/** Every JSON answer of the public API, by the name a route's @ApiReturns gives. */
export interface ApiResponses {
  // common
  ApiErrorBody: ApiErrorBody;
  AuthApiError: AuthApiError;
  Ok: { ok: boolean };
  Empty: Record<string, never>;
  // alerts
  AdminAlert: AdminAlert;
  AdminAlerts: AdminAlert[];
  AdminAlertPage: Page<AdminAlert>;
  AlertAudience: AlertAudience;
  GeocodeResults: GeocodeResult[];
  AlertAuditTrail: AlertAuditEntry[];
  AlertVersions: AlertVersion[];
  CapSource: CapSource;
  CapSourceList: CapSource[];
  CapOrigin: CapOrigin;
  CapPollResult: CapPollResult;
  AlertOperations: AlertOperations;
  // issue #42: the map of an alert's reach
  AlertReach: AlertReach;
  AlertDeliveryPage: Page<AlertDeliveryRow>;
  AlertStats: AlertStats;
  UserAlert: UserAlert;
  UserAlerts: UserAlert[];
  UserAlertPage: Page<UserAlert>;
  AlertReadReceipt: AlertReadReceipt;
  // issue #40: the unread count, a dismissed alert, the place at a point (null when the geocoder knows none there)
  UnreadCount: UnreadCount;
  AlertDismissal: AlertDismissal;
  GeocodePlace: GeocodeResult | null;
  HelpRequest: HelpRequest;
  HelpRequestPage: Page<HelpRequest>;
  RetryResult: { retried: number };
  FallbackResult: { added: number };
  AlertPreferences: AlertPreferences;
  DeliverySettings: DeliverySettings;
  ConnectionTestResult: ConnectionTestResult;
  // provider health per channel (issue #39)
  ChannelHealthReport: ChannelHealthReport;
  TestAlertResult: TestAlertResult;
  PushPublicKey: { publicKey: string };
  PushSubscription: { id: string; endpoint: string };
  PushSubscriptionRemoved: { removed: boolean };
  // issue #39: the providers' receipts and replies
  ReceiptsApplied: ReceiptsApplied;
  ProviderReply: ProviderReply;
  AlertTemplate: AlertTemplate;
  AlertTemplates: AlertTemplate[];
  ApprovalPolicy: ApprovalPolicy;
  // the recurring test alert (issue #38)
  TestSchedule: TestSchedule;
  TestGroup: TestGroup;
  TestGroupMembership: TestGroupMembership;
  // issue #42: contact groups, their members, CSV import and audit trail
  ContactGroup: ContactGroup;
  ContactGroups: ContactGroup[];
  ContactGroupMember: ContactGroupMember;
  ContactGroupMembersPage: ContactGroupMembersPage;
  ContactImportPreview: ContactImportPreview;
  ContactImportResult: ContactImportResult;
  ContactGroupAuditPage: ContactGroupAuditPage;
  // identity
  IdentityUser: IdentityUser;
  IdentityUserList: IdentityUserList;
  IdentitySession: IdentitySession;
  SignUpResult: IdentityUser | IdentitySession;
  TotpEnrollment: TotpEnrollment;
  MfaChallenge: MfaChallenge;
  FactorRemoved: { id: string };
  AuthSettings: AuthSettings;
  JsonWebKeySet: JsonWebKeySet;
  // incidents and community
  Incident: Incident;
  IncidentPage: IncidentPage;
  Incidents: Items<Incident>;
  PossibleDuplicates: Items<PossibleDuplicate>;
  PublicIncidents: Items<PublicIncident>;
  ModerationQueuePage: ModerationQueuePage;
  ModerationQueueCount: ModerationQueueCount;
  UploadResult: UploadResult;
  CommunityPost: CommunityPost;
  CommunityPostPage: { items: CommunityPost[]; total: number };
  CommunityPosts: Items<CommunityPost>;
  CommunityComment: CommunityComment;
  CommunityComments: Items<CommunityComment>;
  LikeResult: LikeResult;
  UserPoints: UserPoints;
  MyCommunityActivityPage: MyCommunityActivityPage;
  CommunityStats: CommunityStats;
  // store
  Product: Product;
  ProductPage: ProductPage;
  FeaturedProducts: { products: Product[] };
  StoreStats: StoreStats;
  ProductAnalytics: ProductAnalytics;
  ProductViewRecorded: { recorded: boolean };
  // traffic
  Cameras: Items<Camera>;
  TrafficEvents: Items<TrafficEvent>;
  IngestRuns: Items<IngestRun>;
  IngestQueued: { queued: boolean };
  // probes
  HealthStatus: { status: 'ok' };
  ReadyStatus: {
    status: 'ok' | 'degraded' | 'error' | 'shutting_down';
    info?: Record<string, unknown>;
    error?: Record<string, unknown>;
    details: Record<string, unknown>;
  };
}

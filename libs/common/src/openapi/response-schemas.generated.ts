// Generated from libs/contracts/src/api-responses.ts by scripts/openapi/response-schemas.mjs: do not edit.
// After changing a response type: npm run openapi:write
import type { ResponseSchemas } from './schema-types';

export const RESPONSE_SCHEMAS: ResponseSchemas = {
  types: {
    AdminAlert: {
      $ref: '#/components/schemas/AdminAlert',
    },
    AdminAlertPage: {
      type: 'object',
      properties: {
        items: {
          type: 'array',
          items: {
            $ref: '#/components/schemas/AdminAlert',
          },
        },
        total: {
          type: 'number',
        },
        page: {
          type: 'number',
        },
        pageSize: {
          type: 'number',
        },
        totalPages: {
          type: 'number',
        },
      },
      required: ['items', 'total', 'page', 'pageSize', 'totalPages'],
    },
    AdminAlerts: {
      type: 'array',
      items: {
        $ref: '#/components/schemas/AdminAlert',
      },
    },
    AlertAudience: {
      $ref: '#/components/schemas/AlertAudience',
    },
    AlertAuditTrail: {
      type: 'array',
      items: {
        $ref: '#/components/schemas/AlertAuditEntry',
      },
    },
    AlertDeliveryPage: {
      type: 'object',
      properties: {
        items: {
          type: 'array',
          items: {
            $ref: '#/components/schemas/AlertDeliveryRow',
          },
        },
        total: {
          type: 'number',
        },
        page: {
          type: 'number',
        },
        pageSize: {
          type: 'number',
        },
        totalPages: {
          type: 'number',
        },
      },
      required: ['items', 'total', 'page', 'pageSize', 'totalPages'],
    },
    AlertDismissal: {
      $ref: '#/components/schemas/AlertDismissal',
    },
    AlertOperations: {
      $ref: '#/components/schemas/AlertOperations',
    },
    AlertPreferences: {
      $ref: '#/components/schemas/AlertPreferences',
    },
    AlertReach: {
      $ref: '#/components/schemas/AlertReach',
    },
    AlertReadReceipt: {
      $ref: '#/components/schemas/AlertReadReceipt',
    },
    AlertStats: {
      $ref: '#/components/schemas/AlertStats',
    },
    AlertTemplate: {
      $ref: '#/components/schemas/AlertTemplate',
    },
    AlertTemplates: {
      type: 'array',
      items: {
        $ref: '#/components/schemas/AlertTemplate',
      },
    },
    AlertVersions: {
      type: 'array',
      items: {
        $ref: '#/components/schemas/AlertVersion',
      },
    },
    ApiErrorBody: {
      $ref: '#/components/schemas/ApiErrorBody',
    },
    ApprovalPolicy: {
      $ref: '#/components/schemas/ApprovalPolicy',
    },
    AuthApiError: {
      $ref: '#/components/schemas/AuthApiError',
    },
    AuthSettings: {
      $ref: '#/components/schemas/AuthSettings',
    },
    Cameras: {
      type: 'object',
      properties: {
        items: {
          type: 'array',
          items: {
            $ref: '#/components/schemas/Camera',
          },
        },
      },
      required: ['items'],
    },
    CapOrigin: {
      $ref: '#/components/schemas/CapOrigin',
    },
    CapPollResult: {
      $ref: '#/components/schemas/CapPollResult',
    },
    CapSource: {
      $ref: '#/components/schemas/CapSource',
    },
    CapSourceList: {
      type: 'array',
      items: {
        $ref: '#/components/schemas/CapSource',
      },
    },
    ChannelHealthReport: {
      $ref: '#/components/schemas/ChannelHealthReport',
    },
    CommunityComment: {
      $ref: '#/components/schemas/CommunityComment',
    },
    CommunityComments: {
      type: 'object',
      properties: {
        items: {
          type: 'array',
          items: {
            $ref: '#/components/schemas/CommunityComment',
          },
        },
      },
      required: ['items'],
    },
    CommunityPost: {
      $ref: '#/components/schemas/CommunityPost',
    },
    CommunityPostPage: {
      type: 'object',
      properties: {
        items: {
          type: 'array',
          items: {
            $ref: '#/components/schemas/CommunityPost',
          },
        },
        total: {
          type: 'number',
        },
      },
      required: ['items', 'total'],
    },
    CommunityPosts: {
      type: 'object',
      properties: {
        items: {
          type: 'array',
          items: {
            $ref: '#/components/schemas/CommunityPost',
          },
        },
      },
      required: ['items'],
    },
    CommunityStats: {
      $ref: '#/components/schemas/CommunityStats',
    },
    ConnectionTestResult: {
      $ref: '#/components/schemas/ConnectionTestResult',
    },
    ContactGroup: {
      $ref: '#/components/schemas/ContactGroup',
    },
    ContactGroupAuditPage: {
      $ref: '#/components/schemas/ContactGroupAuditPage',
    },
    ContactGroupMember: {
      $ref: '#/components/schemas/ContactGroupMember',
    },
    ContactGroupMembersPage: {
      $ref: '#/components/schemas/ContactGroupMembersPage',
    },
    ContactGroups: {
      type: 'array',
      items: {
        $ref: '#/components/schemas/ContactGroup',
      },
    },
    ContactImportPreview: {
      $ref: '#/components/schemas/ContactImportPreview',
    },
    ContactImportResult: {
      $ref: '#/components/schemas/ContactImportResult',
    },
    DeliverySettings: {
      $ref: '#/components/schemas/DeliverySettings',
    },
    Empty: {
      type: 'object',
      properties: {},
      additionalProperties: {
        not: {},
      },
    },
    FactorRemoved: {
      type: 'object',
      properties: {
        id: {
          type: 'string',
        },
      },
      required: ['id'],
    },
    FallbackResult: {
      type: 'object',
      properties: {
        added: {
          type: 'number',
        },
      },
      required: ['added'],
    },
    FeaturedProducts: {
      type: 'object',
      properties: {
        products: {
          type: 'array',
          items: {
            $ref: '#/components/schemas/Product',
          },
        },
      },
      required: ['products'],
    },
    GeocodePlace: {
      anyOf: [
        {
          type: 'null',
        },
        {
          $ref: '#/components/schemas/GeocodeResult',
        },
      ],
    },
    GeocodeResults: {
      type: 'array',
      items: {
        $ref: '#/components/schemas/GeocodeResult',
      },
    },
    HealthStatus: {
      type: 'object',
      properties: {
        status: {
          type: 'string',
          const: 'ok',
        },
      },
      required: ['status'],
    },
    HelpRequest: {
      $ref: '#/components/schemas/HelpRequest',
    },
    HelpRequestPage: {
      type: 'object',
      properties: {
        items: {
          type: 'array',
          items: {
            $ref: '#/components/schemas/HelpRequest',
          },
        },
        total: {
          type: 'number',
        },
        page: {
          type: 'number',
        },
        pageSize: {
          type: 'number',
        },
        totalPages: {
          type: 'number',
        },
      },
      required: ['items', 'total', 'page', 'pageSize', 'totalPages'],
    },
    IdentitySession: {
      $ref: '#/components/schemas/IdentitySession',
    },
    IdentityUser: {
      $ref: '#/components/schemas/IdentityUser',
    },
    IdentityUserList: {
      $ref: '#/components/schemas/IdentityUserList',
    },
    Incident: {
      $ref: '#/components/schemas/Incident',
    },
    IncidentPage: {
      $ref: '#/components/schemas/IncidentPage',
    },
    Incidents: {
      type: 'object',
      properties: {
        items: {
          type: 'array',
          items: {
            $ref: '#/components/schemas/Incident',
          },
        },
      },
      required: ['items'],
    },
    IngestQueued: {
      type: 'object',
      properties: {
        queued: {
          type: 'boolean',
        },
      },
      required: ['queued'],
    },
    IngestRuns: {
      type: 'object',
      properties: {
        items: {
          type: 'array',
          items: {
            $ref: '#/components/schemas/IngestRun',
          },
        },
      },
      required: ['items'],
    },
    JsonWebKeySet: {
      $ref: '#/components/schemas/JsonWebKeySet',
    },
    LikeResult: {
      $ref: '#/components/schemas/LikeResult',
    },
    MfaChallenge: {
      $ref: '#/components/schemas/MfaChallenge',
    },
    ModerationQueueCount: {
      $ref: '#/components/schemas/ModerationQueueCount',
    },
    ModerationQueuePage: {
      $ref: '#/components/schemas/ModerationQueuePage',
    },
    MyCommunityActivityPage: {
      $ref: '#/components/schemas/MyCommunityActivityPage',
    },
    Ok: {
      type: 'object',
      properties: {
        ok: {
          type: 'boolean',
        },
      },
      required: ['ok'],
    },
    PossibleDuplicates: {
      type: 'object',
      properties: {
        items: {
          type: 'array',
          items: {
            $ref: '#/components/schemas/PossibleDuplicate',
          },
        },
      },
      required: ['items'],
    },
    Product: {
      $ref: '#/components/schemas/Product',
    },
    ProductAnalytics: {
      $ref: '#/components/schemas/ProductAnalytics',
    },
    ProductPage: {
      $ref: '#/components/schemas/ProductPage',
    },
    ProductViewRecorded: {
      type: 'object',
      properties: {
        recorded: {
          type: 'boolean',
        },
      },
      required: ['recorded'],
    },
    ProviderReply: {
      $ref: '#/components/schemas/ProviderReply',
    },
    PublicIncidents: {
      type: 'object',
      properties: {
        items: {
          type: 'array',
          items: {
            $ref: '#/components/schemas/PublicIncident',
          },
        },
      },
      required: ['items'],
    },
    PushPublicKey: {
      type: 'object',
      properties: {
        publicKey: {
          type: 'string',
        },
      },
      required: ['publicKey'],
    },
    PushSubscription: {
      type: 'object',
      properties: {
        id: {
          type: 'string',
        },
        endpoint: {
          type: 'string',
        },
      },
      required: ['id', 'endpoint'],
    },
    PushSubscriptionRemoved: {
      type: 'object',
      properties: {
        removed: {
          type: 'boolean',
        },
      },
      required: ['removed'],
    },
    ReadyStatus: {
      type: 'object',
      properties: {
        status: {
          type: 'string',
          enum: ['error', 'ok', 'degraded', 'shutting_down'],
        },
        info: {
          type: 'object',
          properties: {},
          additionalProperties: {},
        },
        error: {
          type: 'object',
          properties: {},
          additionalProperties: {},
        },
        details: {
          type: 'object',
          properties: {},
          additionalProperties: {},
        },
      },
      required: ['status', 'details'],
    },
    ReceiptsApplied: {
      $ref: '#/components/schemas/ReceiptsApplied',
    },
    RetryResult: {
      type: 'object',
      properties: {
        retried: {
          type: 'number',
        },
      },
      required: ['retried'],
    },
    SignUpResult: {
      anyOf: [
        {
          $ref: '#/components/schemas/IdentityUser',
        },
        {
          $ref: '#/components/schemas/IdentitySession',
        },
      ],
    },
    StoreStats: {
      $ref: '#/components/schemas/StoreStats',
    },
    TestAlertResult: {
      $ref: '#/components/schemas/TestAlertResult',
    },
    TestGroup: {
      $ref: '#/components/schemas/TestGroup',
    },
    TestGroupMembership: {
      $ref: '#/components/schemas/TestGroupMembership',
    },
    TestSchedule: {
      $ref: '#/components/schemas/TestSchedule',
    },
    TotpEnrollment: {
      $ref: '#/components/schemas/TotpEnrollment',
    },
    TrafficEvents: {
      type: 'object',
      properties: {
        items: {
          type: 'array',
          items: {
            $ref: '#/components/schemas/TrafficEvent',
          },
        },
      },
      required: ['items'],
    },
    UnreadCount: {
      $ref: '#/components/schemas/UnreadCount',
    },
    UploadResult: {
      $ref: '#/components/schemas/UploadResult',
    },
    UserAlert: {
      $ref: '#/components/schemas/UserAlert',
    },
    UserAlertPage: {
      type: 'object',
      properties: {
        items: {
          type: 'array',
          items: {
            $ref: '#/components/schemas/UserAlert',
          },
        },
        total: {
          type: 'number',
        },
        page: {
          type: 'number',
        },
        pageSize: {
          type: 'number',
        },
        totalPages: {
          type: 'number',
        },
      },
      required: ['items', 'total', 'page', 'pageSize', 'totalPages'],
    },
    UserAlerts: {
      type: 'array',
      items: {
        $ref: '#/components/schemas/UserAlert',
      },
    },
    UserPoints: {
      $ref: '#/components/schemas/UserPoints',
    },
  },
  components: {
    AdminAlert: {
      description: 'An alert as the admin screens see it.',
      type: 'object',
      properties: {
        translations: {
          description: 'Its text in other languages than English (title and message are the English), by language code; {} when none.',
          type: 'object',
          properties: {
            es: {
              $ref: '#/components/schemas/AlertText',
            },
            fr: {
              $ref: '#/components/schemas/AlertText',
            },
            zh: {
              $ref: '#/components/schemas/AlertText',
            },
            vi: {
              $ref: '#/components/schemas/AlertText',
            },
            ko: {
              $ref: '#/components/schemas/AlertText',
            },
          },
        },
        createdBy: {
          anyOf: [
            {
              type: 'null',
            },
            {
              type: 'string',
            },
          ],
        },
        updatedAt: {
          type: 'string',
        },
        revision: {
          description:
            "One more at every change of its text, area or status, drafts included (unlike `version`, which counts what went\nout). An edit sends back the revision it was made on, so that it never overwrites a colleague's unseen.",
          type: 'number',
        },
        sentAt: {
          anyOf: [
            {
              type: 'null',
            },
            {
              type: 'string',
            },
          ],
        },
        source: {
          description: 'Source: an admin form, or a verified incident (drafts).',
          type: 'string',
          enum: ['admin', 'incident', 'test', 'cap'],
        },
        recipients: {
          description:
            "The people it was sent to in any round (its first message, those an update newly concerned, a fallback's): one per\nperson whatever the channels and rounds, as its delivery rows say. Null until the dispatcher has selected them.",
          anyOf: [
            {
              type: 'null',
            },
            {
              type: 'number',
            },
          ],
        },
        concerned: {
          description:
            'Everyone it concerned when it went out, reached by a channel or not (their open screens were told): those beyond\n`recipients` had none of its channels on, or push on with no browser subscribed. After an update: its recipients\nand those the alert concerns now whom no channel reaches (issue #38), so a fallback that reached them, or an area\nmoved away from them, takes them out of the difference. Null until known.',
          anyOf: [
            {
              type: 'null',
            },
            {
              type: 'number',
            },
          ],
        },
        summary: {
          description: "Every round's deliveries: the first message, updates, the all-clear, fallbacks and reminders.",
          type: 'object',
          properties: {
            push: {
              $ref: '#/components/schemas/ChannelCounts',
            },
            sms: {
              $ref: '#/components/schemas/ChannelCounts',
            },
            email: {
              $ref: '#/components/schemas/ChannelCounts',
            },
            voice: {
              $ref: '#/components/schemas/ChannelCounts',
            },
          },
        },
        deliveryLabel: {
          type: 'string',
          enum: ['Pending', 'All Delivered', 'Sent to provider', 'Partial', 'Failed', 'Not Sent', 'No Recipients'],
        },
        successRate: {
          description: 'alertSuccessRate: null while the alert has not gone out (issue #38; it was 0).',
          anyOf: [
            {
              type: 'null',
            },
            {
              type: 'number',
            },
          ],
        },
        responses: {
          $ref: '#/components/schemas/AlertResponses',
        },
        reminder: {
          description: 'The escalation asked for when it was created: remind whoever has not answered; null when none was.',
          anyOf: [
            {
              type: 'null',
            },
            {
              $ref: '#/components/schemas/AlertReminder',
            },
          ],
        },
        createdByEmail: {
          description: "The author's e-mail (`createdBy` is their id); null for Beacon itself (a CAP source, a test).",
          anyOf: [
            {
              type: 'null',
            },
            {
              type: 'string',
            },
          ],
        },
        sendAt: {
          description: 'When a scheduled send goes out (status scheduled, or awaiting approval for a time); null otherwise.',
          anyOf: [
            {
              type: 'null',
            },
            {
              type: 'string',
            },
          ],
        },
        approval: {
          description: 'The second pair of eyes the approval policy asked for before it went out; null when none was asked.',
          anyOf: [
            {
              type: 'null',
            },
            {
              $ref: '#/components/schemas/AlertApproval',
            },
          ],
        },
        breakGlass: {
          description: "Sent without the approval the policy asked for, on its author's typed reason: flagged wherever it is shown.",
          anyOf: [
            {
              type: 'null',
            },
            {
              type: 'object',
              properties: {
                by: {
                  anyOf: [
                    {
                      type: 'null',
                    },
                    {
                      type: 'string',
                    },
                  ],
                },
                byEmail: {
                  anyOf: [
                    {
                      type: 'null',
                    },
                    {
                      type: 'string',
                    },
                  ],
                },
                reason: {
                  type: 'string',
                },
                at: {
                  type: 'string',
                },
              },
              required: ['by', 'byEmail', 'reason', 'at'],
            },
          ],
        },
        groups: {
          description:
            'The contact groups it targets besides (or instead of) its area (issue #42), [] when none: their members get it\nwherever they live and whatever their type and severity choices. A group deleted since is left out.',
          type: 'array',
          items: {
            $ref: '#/components/schemas/AlertTargetGroup',
          },
        },
        id: {
          type: 'string',
        },
        title: {
          type: 'string',
        },
        message: {
          type: 'string',
        },
        severity: {
          type: 'string',
          enum: ['low', 'medium', 'high', 'critical'],
        },
        priority: {
          description: 'The admin-screen view of severity.',
          type: 'string',
          enum: ['low', 'medium', 'high'],
        },
        category: {
          type: 'string',
          enum: ['weather', 'traffic', 'security', 'public_safety', 'health'],
        },
        type: {
          type: 'string',
        },
        status: {
          type: 'string',
          enum: ['cancelled', 'draft', 'scheduled', 'pending_approval', 'active', 'expired', 'all_clear'],
        },
        locationName: {
          anyOf: [
            {
              type: 'null',
            },
            {
              type: 'string',
            },
          ],
        },
        lat: {
          anyOf: [
            {
              type: 'null',
            },
            {
              type: 'number',
            },
          ],
        },
        lng: {
          anyOf: [
            {
              type: 'null',
            },
            {
              type: 'number',
            },
          ],
        },
        radiusKm: {
          description: "A circle's radius; null for an alert without an area and for a polygon alert.",
          anyOf: [
            {
              type: 'null',
            },
            {
              type: 'number',
            },
          ],
        },
        area: {
          description:
            'Where the alert applies: a circle (lat, lng, radiusKm above), a drawn polygon, or null (everyone). For a polygon,\nlat/lng above are its centroid (map centring, sorting), never a test of who it concerns.',
          anyOf: [
            {
              type: 'null',
            },
            {
              type: 'object',
              properties: {
                type: {
                  type: 'string',
                  const: 'circle',
                },
                lat: {
                  type: 'number',
                },
                lng: {
                  type: 'number',
                },
                radiusKm: {
                  type: 'number',
                },
                description: {
                  type: 'string',
                },
              },
              required: ['type', 'lat', 'lng', 'radiusKm'],
            },
            {
              type: 'object',
              properties: {
                type: {
                  type: 'string',
                  const: 'polygon',
                },
                points: {
                  type: 'array',
                  items: {
                    type: 'array',
                    items: {
                      type: 'number',
                    },
                  },
                },
                description: {
                  type: 'string',
                },
              },
              required: ['type', 'points'],
            },
            {
              type: 'object',
              properties: {
                type: {
                  type: 'string',
                  const: 'multi',
                },
                parts: {
                  type: 'array',
                  items: {
                    $ref: '#/components/schemas/AlertAreaPart',
                  },
                },
              },
              required: ['type', 'parts'],
            },
          ],
        },
        channels: {
          type: 'array',
          items: {
            type: 'string',
            enum: ['push', 'sms', 'email', 'voice'],
          },
        },
        createdAt: {
          type: 'string',
        },
        expiresAt: {
          anyOf: [
            {
              type: 'null',
            },
            {
              type: 'string',
            },
          ],
        },
        version: {
          description: '1 as sent; each update adds one (the all-clear too).',
          type: 'number',
        },
        allClear: {
          description:
            "When the all-clear was given, with its message; null otherwise. `translations`: its message in the alert's other\nlanguages (issue #38), each reader getting theirs (AllClearTranslations); absent or {} when it was given in English only.",
          anyOf: [
            {
              type: 'null',
            },
            {
              type: 'object',
              properties: {
                at: {
                  type: 'string',
                },
                message: {
                  anyOf: [
                    {
                      type: 'null',
                    },
                    {
                      type: 'string',
                    },
                  ],
                },
                translations: {
                  type: 'object',
                  properties: {
                    es: {
                      type: 'object',
                      properties: {
                        message: {
                          type: 'string',
                        },
                      },
                      required: ['message'],
                    },
                    fr: {
                      type: 'object',
                      properties: {
                        message: {
                          type: 'string',
                        },
                      },
                      required: ['message'],
                    },
                    zh: {
                      type: 'object',
                      properties: {
                        message: {
                          type: 'string',
                        },
                      },
                      required: ['message'],
                    },
                    vi: {
                      type: 'object',
                      properties: {
                        message: {
                          type: 'string',
                        },
                      },
                      required: ['message'],
                    },
                    ko: {
                      type: 'object',
                      properties: {
                        message: {
                          type: 'string',
                        },
                      },
                      required: ['message'],
                    },
                  },
                },
              },
              required: ['at', 'message'],
            },
          ],
        },
        lastChange: {
          description:
            "What the latest version changed for its readers (issue #40): an update's fields (and the severity it had\nbefore), or the all-clear; null (or absent) for an alert that never changed. The service always fills it.",
          anyOf: [
            {
              type: 'null',
            },
            {
              $ref: '#/components/schemas/AlertChange',
            },
          ],
        },
      },
      required: [
        'translations',
        'createdBy',
        'updatedAt',
        'revision',
        'sentAt',
        'source',
        'recipients',
        'concerned',
        'summary',
        'deliveryLabel',
        'successRate',
        'responses',
        'reminder',
        'createdByEmail',
        'sendAt',
        'approval',
        'breakGlass',
        'groups',
        'id',
        'title',
        'message',
        'severity',
        'priority',
        'category',
        'type',
        'status',
        'locationName',
        'lat',
        'lng',
        'radiusKm',
        'area',
        'channels',
        'createdAt',
        'expiresAt',
        'version',
        'allClear',
      ],
    },
    AlertApproval: {
      type: 'object',
      properties: {
        reason: {
          $ref: '#/components/schemas/ApprovalReason',
        },
        requestedBy: {
          anyOf: [
            {
              type: 'null',
            },
            {
              type: 'string',
            },
          ],
        },
        requestedByEmail: {
          anyOf: [
            {
              type: 'null',
            },
            {
              type: 'string',
            },
          ],
        },
        requestedAt: {
          type: 'string',
        },
        decision: {
          description: 'null while it waits.',
          anyOf: [
            {
              type: 'string',
              enum: ['approved', 'rejected'],
            },
            {
              type: 'null',
            },
          ],
        },
        decidedBy: {
          anyOf: [
            {
              type: 'null',
            },
            {
              type: 'string',
            },
          ],
        },
        decidedByEmail: {
          anyOf: [
            {
              type: 'null',
            },
            {
              type: 'string',
            },
          ],
        },
        decidedAt: {
          anyOf: [
            {
              type: 'null',
            },
            {
              type: 'string',
            },
          ],
        },
        note: {
          description: "A rejection's reason (required), or an approval's note (optional).",
          anyOf: [
            {
              type: 'null',
            },
            {
              type: 'string',
            },
          ],
        },
      },
      required: ['reason', 'requestedBy', 'requestedByEmail', 'requestedAt', 'decision', 'decidedBy', 'decidedByEmail', 'decidedAt', 'note'],
    },
    AlertAreaPart: {
      description: "One part of an alert's area: a circle around a point, or a polygon drawn on the map; `description` is CAP's `<areaDesc>`.",
      anyOf: [
        {
          type: 'object',
          properties: {
            type: {
              type: 'string',
              const: 'circle',
            },
            lat: {
              type: 'number',
            },
            lng: {
              type: 'number',
            },
            radiusKm: {
              type: 'number',
            },
            description: {
              type: 'string',
            },
          },
          required: ['type', 'lat', 'lng', 'radiusKm'],
        },
        {
          type: 'object',
          properties: {
            type: {
              type: 'string',
              const: 'polygon',
            },
            points: {
              type: 'array',
              items: {
                type: 'array',
                items: {
                  type: 'number',
                },
              },
            },
            description: {
              type: 'string',
            },
          },
          required: ['type', 'points'],
        },
      ],
    },
    AlertAudience: {
      description:
        "POST /api/alerts/audience: whom an alert would reach if sent now, by the dispatcher's own rule, with nothing\nstored or sent. `recipients` is what the sent alert's recipients will read (people reached on at least one of its\nchannels); `concerned` counts everyone it concerns, reached or not.",
      type: 'object',
      properties: {
        token: {
          description:
            'Signed by the server for this action on this alert and body, with the counts it shows: sent back in the\nAudience-Token header of the sending call, which answers 409 with fresh counts when the audience moved since.',
          type: 'string',
        },
        concerned: {
          type: 'number',
        },
        recipients: {
          type: 'number',
        },
        held: {
          type: 'number',
        },
        channels: {
          type: 'object',
          properties: {
            push: {
              $ref: '#/components/schemas/ChannelAudience',
            },
            sms: {
              $ref: '#/components/schemas/ChannelAudience',
            },
            email: {
              $ref: '#/components/schemas/ChannelAudience',
            },
            voice: {
              $ref: '#/components/schemas/ChannelAudience',
            },
          },
        },
        unreachable: {
          description:
            'The people it concerns whom none of its channels reaches (noChannel), and of them those with a reason of their\nown: push on but no browser (noDevice), SMS on but their number replied STOP (smsStopped).',
          type: 'object',
          properties: {
            noChannel: {
              description: "Concerned, but none of the alert's channels reaches them (none on in their preferences, or see below).",
              type: 'number',
            },
            noDevice: {
              description:
                "Push on in their preferences but no browser subscribed (the alert's channels include push), and no other of its channels reaches them.",
              type: 'number',
            },
            smsStopped: {
              description:
                "Of noChannel, those with SMS on whose number replied STOP (issue #39; no SMS goes to it until it replies START)\nand whom no other of its channels reaches. Present when the alert's channels include SMS, else absent.",
              type: 'number',
            },
          },
          required: ['noChannel', 'noDevice'],
        },
        told: {
          description:
            "An update's preview only (POST /api/alerts/:id/update/audience, issue #38): whom it tells what, in people. Those it\nreached who are still concerned get the update, those it reached whom the new area leaves out are told so, those it\nconcerns now and never reached get the alert as new. `recipients` is their sum.",
          type: 'object',
          properties: {
            stillInArea: {
              type: 'number',
            },
            leftArea: {
              type: 'number',
            },
            newlyConcerned: {
              type: 'number',
            },
          },
          required: ['stillInArea', 'leftArea', 'newlyConcerned'],
        },
        byTarget: {
          $ref: '#/components/schemas/AudienceByTarget',
        },
      },
      required: ['token', 'concerned', 'recipients', 'held', 'channels', 'unreachable'],
    },
    AlertAuditEntry: {
      description: 'GET /api/alerts/:id/audit: who did what to the alert and when (actor null: Beacon itself), oldest first.',
      type: 'object',
      properties: {
        action: {
          type: 'string',
          enum: [
            'sent',
            'cancelled',
            'approved',
            'rejected',
            'scheduled',
            'expired',
            'all_clear',
            'created',
            'retried',
            'fallback',
            'reminded',
            'updated',
            'approval_requested',
            'break_glass',
            'reply_received',
          ],
        },
        actorId: {
          anyOf: [
            {
              type: 'null',
            },
            {
              type: 'string',
            },
          ],
        },
        actorEmail: {
          anyOf: [
            {
              type: 'null',
            },
            {
              type: 'string',
            },
          ],
        },
        details: {
          type: 'object',
          properties: {},
          additionalProperties: {},
        },
        at: {
          type: 'string',
        },
      },
      required: ['action', 'actorId', 'actorEmail', 'details', 'at'],
    },
    AlertChange: {
      description: 'The latest change of an alert in effect or ended: "Updated 2 min ago: severity raised to Critical", "All clear".',
      type: 'object',
      properties: {
        version: {
          type: 'number',
        },
        kind: {
          type: 'string',
          enum: ['all_clear', 'update'],
        },
        at: {
          type: 'string',
        },
        fields: {
          description: "The update's changed fields; [] for the all-clear.",
          type: 'array',
          items: {
            type: 'string',
            enum: ['severity', 'title', 'message', 'translations', 'expiresAt', 'area'],
          },
        },
        severityFrom: {
          description: 'The severity before this version, when this version changed it; null otherwise.',
          anyOf: [
            {
              type: 'string',
              enum: ['low', 'medium', 'high', 'critical'],
            },
            {
              type: 'null',
            },
          ],
        },
      },
      required: ['version', 'kind', 'at', 'fields', 'severityFrom'],
    },
    AlertDeliveryRow: {
      description: 'One delivery of an alert on the admin alert page (GET /api/alerts/:id/deliveries).',
      type: 'object',
      properties: {
        id: {
          type: 'string',
        },
        userId: {
          type: 'string',
        },
        channel: {
          type: 'string',
          enum: ['push', 'sms', 'email', 'voice'],
        },
        status: {
          description: 'A delivery being sent reads pending.',
          type: 'string',
          enum: ['pending', 'sent', 'delivered', 'failed', 'read', 'cancelled'],
        },
        attempts: {
          type: 'number',
        },
        error: {
          anyOf: [
            {
              type: 'null',
            },
            {
              type: 'string',
            },
          ],
        },
        heldUntil: {
          description: 'Held for quiet hours, a digest or a quiet weekend until then; null when not held.',
          anyOf: [
            {
              type: 'null',
            },
            {
              type: 'string',
            },
          ],
        },
        sentAt: {
          anyOf: [
            {
              type: 'null',
            },
            {
              type: 'string',
            },
          ],
        },
        deliveredAt: {
          anyOf: [
            {
              type: 'null',
            },
            {
              type: 'string',
            },
          ],
        },
        readAt: {
          anyOf: [
            {
              type: 'null',
            },
            {
              type: 'string',
            },
          ],
        },
        createdAt: {
          type: 'string',
        },
        inDigest: {
          type: 'boolean',
        },
        contact: {
          description:
            'Whom it went to on its channel, masked (issue #38): the phone for SMS and voice (+1•••••4567), the e-mail address for e-mail\n(j•••@example.com), the browsers subscribed for push ("Chrome on Android"); null when none is on file now.',
          anyOf: [
            {
              type: 'null',
            },
            {
              type: 'string',
            },
          ],
        },
        kind: {
          description: 'What it carried: the alert, an update, the all-clear, a fallback ... (DELIVERY_MESSAGE_KIND_LABELS).',
          type: 'string',
          enum: ['all_clear', 'update', 'fallback', 'alert', 'left_area', 'reminder'],
        },
        version: {
          description: "The alert's version it carried (1 as first sent; each update and the all-clear add one).",
          type: 'number',
        },
        lastError: {
          description: 'The error of its last failed attempt, kept when a later attempt succeeded; null when no attempt failed.',
          anyOf: [
            {
              type: 'null',
            },
            {
              type: 'string',
            },
          ],
        },
        receipt: {
          description:
            "What the provider's receipt said of it (issue #39; optional until the list returns it): delivered, bounced, no\nanswer ... (DELIVERY_RECEIPT_LABELS), when, and the provider's reason; null while no receipt came.",
          anyOf: [
            {
              type: 'string',
              enum: ['delivered', 'failed', 'undelivered', 'bounced', 'complained', 'answered', 'no_answer', 'busy'],
            },
            {
              type: 'null',
            },
          ],
        },
        receiptAt: {
          anyOf: [
            {
              type: 'null',
            },
            {
              type: 'string',
            },
          ],
        },
        receiptReason: {
          anyOf: [
            {
              type: 'null',
            },
            {
              type: 'string',
            },
          ],
        },
        statusLabel: {
          description: 'The status in words (DELIVERY_STATUS_LABELS): "Sent to provider" until a receipt says more.',
          type: 'string',
        },
      },
      required: ['id', 'userId', 'channel', 'status', 'attempts', 'error', 'heldUntil', 'sentAt', 'deliveredAt', 'readAt', 'createdAt', 'inDigest'],
    },
    AlertDismissal: {
      description: 'An ended alert put away from my feed (POST /api/alerts/me/alerts/:id/dismiss, issue #40); it is read too.',
      type: 'object',
      properties: {
        alertId: {
          type: 'string',
        },
        dismissedAt: {
          type: 'string',
        },
      },
      required: ['alertId', 'dismissedAt'],
    },
    AlertOperations: {
      description:
        "GET /api/alerts/:id/operations: an alert's delivery as it happens, for the live operations view. The counts\nthemselves are the alert's summary (AdminAlert, AlertProgress); this adds their pace, the failures' reasons and the\nretries' times, and the outcomes over the first OPERATIONS_CHART_MINUTES.",
      type: 'object',
      properties: {
        alertId: {
          type: 'string',
        },
        dispatchedAt: {
          anyOf: [
            {
              type: 'null',
            },
            {
              type: 'string',
            },
          ],
        },
        channels: {
          type: 'object',
          properties: {
            push: {
              $ref: '#/components/schemas/ChannelOperations',
            },
            sms: {
              $ref: '#/components/schemas/ChannelOperations',
            },
            email: {
              $ref: '#/components/schemas/ChannelOperations',
            },
            voice: {
              $ref: '#/components/schemas/ChannelOperations',
            },
          },
        },
        failures: {
          description: 'Most frequent first.',
          type: 'array',
          items: {
            $ref: '#/components/schemas/FailureReason',
          },
        },
        timeline: {
          type: 'array',
          items: {
            $ref: '#/components/schemas/OperationsBucket',
          },
        },
        at: {
          description: "The server's clock when read: times above are relative to it.",
          type: 'string',
        },
      },
      required: ['alertId', 'dispatchedAt', 'channels', 'failures', 'timeline', 'at'],
    },
    AlertPreferences: {
      description: 'What GET/PUT /api/alerts/me/preferences carry.',
      type: 'object',
      properties: {
        alertTypes: {
          type: 'array',
          items: {
            type: 'string',
            enum: ['weather', 'traffic', 'emergency', 'crime', 'construction', 'events'],
          },
        },
        categories: {
          description: 'Derived from alertTypes; what eligibility uses. Read-only.',
          type: 'array',
          items: {
            type: 'string',
            enum: ['weather', 'traffic', 'security', 'public_safety', 'health'],
          },
        },
        severityThreshold: {
          type: 'string',
          enum: ['low', 'medium', 'high', 'critical'],
        },
        frequency: {
          type: 'string',
          enum: ['immediate', 'hourly', 'daily', 'weekly'],
        },
        radiusMiles: {
          type: 'number',
        },
        radiusKm: {
          description: 'Stored value; radiusMiles is its display.',
          type: 'number',
        },
        quietHours: {
          $ref: '#/components/schemas/QuietHours',
        },
        weekendEnabled: {
          type: 'boolean',
        },
        methods: {
          $ref: '#/components/schemas/NotificationMethods',
        },
        phoneNumber: {
          anyOf: [
            {
              type: 'null',
            },
            {
              type: 'string',
            },
          ],
        },
        home: {
          description: 'Home location; null when not set (then location does not restrict eligibility).',
          anyOf: [
            {
              type: 'null',
            },
            {
              $ref: '#/components/schemas/HomeLocation',
            },
          ],
        },
        language: {
          description:
            "The language alerts reach them in (push, SMS, e-mail, their feed), falling back to English for an alert without\nit. Null until they choose one: the web app then proposes the browser's language and sends it with the first save.",
          anyOf: [
            {
              type: 'string',
              enum: ['en', 'es', 'fr', 'zh', 'vi', 'ko'],
            },
            {
              type: 'null',
            },
          ],
        },
      },
      required: [
        'alertTypes',
        'categories',
        'severityThreshold',
        'frequency',
        'radiusMiles',
        'radiusKm',
        'quietHours',
        'weekendEnabled',
        'methods',
        'phoneNumber',
        'home',
        'language',
      ],
    },
    AlertReach: {
      description: "GET /api/alerts/:id/reach: the alert's recipients on the map, counted, and its help requests.",
      type: 'object',
      properties: {
        alertId: {
          type: 'string',
        },
        minCellPeople: {
          description: 'REACH_MIN_CELL_PEOPLE, as the server applied it.',
          type: 'number',
        },
        cells: {
          description:
            'The cells, finest first. A coarser cell may contain finer ones: it then counts only the people of its square\nthat no finer cell counts (those too few to be shown finer).',
          type: 'array',
          items: {
            $ref: '#/components/schemas/ReachCell',
          },
        },
        totals: {
          $ref: '#/components/schemas/ReachCounts',
        },
        confirmed: {
          description: "Of `totals.reached`, those a provider's receipt or the person confirmed (delivered, read) on some channel.",
          type: 'number',
        },
        elsewhere: {
          $ref: '#/components/schemas/ReachCounts',
        },
        unlocated: {
          $ref: '#/components/schemas/ReachCounts',
        },
        helpRequests: {
          description: 'Open ones first, then newest first, at most REACH_HELP_REQUESTS_MAX.',
          type: 'array',
          items: {
            $ref: '#/components/schemas/ReachHelpRequest',
          },
        },
        helpRequestsTotal: {
          type: 'number',
        },
        at: {
          description: 'When the server counted (ISO).',
          type: 'string',
        },
      },
      required: ['alertId', 'minCellPeople', 'cells', 'totals', 'confirmed', 'elsewhere', 'unlocated', 'helpRequests', 'helpRequestsTotal', 'at'],
    },
    AlertReadReceipt: {
      description: '"I\'m Safe" recorded.',
      type: 'object',
      properties: {
        alertId: {
          type: 'string',
        },
        read: {
          type: 'boolean',
          const: true,
        },
        readAt: {
          type: 'string',
        },
      },
      required: ['alertId', 'read', 'readAt'],
    },
    AlertReminder: {
      description:
        'An alert\'s escalation: whoever it reached and has not answered ("I\'m Safe" or a help request) `afterMinutes` after it\nwent out is sent it again, once, as a reminder, on the channels that reached them.',
      type: 'object',
      properties: {
        afterMinutes: {
          type: 'number',
        },
        dueAt: {
          description: 'When it is due: null until the alert has gone out.',
          anyOf: [
            {
              type: 'null',
            },
            {
              type: 'string',
            },
          ],
        },
        sentAt: {
          description: 'When it went; null while it is due (or if the alert ended before).',
          anyOf: [
            {
              type: 'null',
            },
            {
              type: 'string',
            },
          ],
        },
        deliveries: {
          description: 'Reminder deliveries it made (0: everyone reached had answered). Null until sent.',
          anyOf: [
            {
              type: 'null',
            },
            {
              type: 'number',
            },
          ],
        },
      },
      required: ['afterMinutes', 'dueAt', 'sentAt', 'deliveries'],
    },
    AlertResponses: {
      description: 'What the people an alert reached answered: "I\'m Safe", and help requests (those still open apart).',
      type: 'object',
      properties: {
        safe: {
          type: 'number',
        },
        needHelp: {
          type: 'number',
        },
        helpOpen: {
          type: 'number',
        },
      },
      required: ['safe', 'needHelp', 'helpOpen'],
    },
    AlertStats: {
      description: "The dashboard's figures (GET /api/alerts/stats).",
      type: 'object',
      properties: {
        totalSent: {
          type: 'number',
        },
        activeAlerts: {
          type: 'number',
        },
        drafts: {
          type: 'number',
        },
        totalDeliveries: {
          type: 'number',
        },
        deliveries: {
          $ref: '#/components/schemas/ChannelCounts',
        },
        successRate: {
          type: 'number',
        },
        perDay: {
          type: 'array',
          items: {
            type: 'object',
            properties: {
              day: {
                type: 'string',
              },
              total: {
                type: 'number',
              },
              successful: {
                type: 'number',
              },
              failed: {
                type: 'number',
              },
            },
            required: ['day', 'total', 'successful', 'failed'],
          },
        },
        timeZone: {
          type: 'string',
        },
      },
      required: ['totalSent', 'activeAlerts', 'drafts', 'totalDeliveries', 'deliveries', 'successRate', 'perDay', 'timeZone'],
    },
    AlertTargetGroup: {
      description: 'A group an alert targets, as the console shows it: its name as now, and its members as now.',
      type: 'object',
      properties: {
        id: {
          type: 'string',
        },
        name: {
          type: 'string',
        },
        memberCount: {
          type: 'number',
        },
        externalCount: {
          type: 'number',
        },
      },
      required: ['id', 'name', 'memberCount', 'externalCount'],
    },
    AlertTemplate: {
      description:
        'A saved alert template (GET/POST/PUT/DELETE /api/alerts/templates) that the wizard and Quick Send start from: what\nkind of alert, how severe, its text in English (title, message) and other languages, its channels and default radius.',
      type: 'object',
      properties: {
        id: {
          type: 'string',
        },
        name: {
          type: 'string',
        },
        type: {
          type: 'string',
        },
        category: {
          type: 'string',
          enum: ['weather', 'traffic', 'security', 'public_safety', 'health'],
        },
        severity: {
          type: 'string',
          enum: ['low', 'medium', 'high', 'critical'],
        },
        title: {
          type: 'string',
        },
        message: {
          type: 'string',
        },
        translations: {
          type: 'object',
          properties: {
            es: {
              $ref: '#/components/schemas/AlertText',
            },
            fr: {
              $ref: '#/components/schemas/AlertText',
            },
            zh: {
              $ref: '#/components/schemas/AlertText',
            },
            vi: {
              $ref: '#/components/schemas/AlertText',
            },
            ko: {
              $ref: '#/components/schemas/AlertText',
            },
          },
        },
        channels: {
          type: 'array',
          items: {
            type: 'string',
            enum: ['push', 'sms', 'email', 'voice'],
          },
        },
        radiusKm: {
          description: "The radius the form starts with; null: the form's own default.",
          anyOf: [
            {
              type: 'null',
            },
            {
              type: 'number',
            },
          ],
        },
        createdAt: {
          type: 'string',
        },
        updatedAt: {
          type: 'string',
        },
      },
      required: ['id', 'name', 'type', 'category', 'severity', 'title', 'message', 'translations', 'channels', 'radiusKm', 'createdAt', 'updatedAt'],
    },
    AlertText: {
      description: "An alert's text in one language.",
      type: 'object',
      properties: {
        title: {
          type: 'string',
        },
        message: {
          type: 'string',
        },
      },
      required: ['title', 'message'],
    },
    AlertVersion: {
      description:
        'One version of an alert (GET /api/alerts/:id/versions, oldest first): as it was sent (`original`), each update, and\nthe all-clear. `notified` counts the messages its fan-out queued (null while it is under way).',
      type: 'object',
      properties: {
        version: {
          type: 'number',
        },
        kind: {
          type: 'string',
          enum: ['all_clear', 'update', 'original'],
        },
        title: {
          type: 'string',
        },
        message: {
          type: 'string',
        },
        severity: {
          type: 'string',
          enum: ['low', 'medium', 'high', 'critical'],
        },
        expiresAt: {
          anyOf: [
            {
              type: 'null',
            },
            {
              type: 'string',
            },
          ],
        },
        locationName: {
          anyOf: [
            {
              type: 'null',
            },
            {
              type: 'string',
            },
          ],
        },
        lat: {
          anyOf: [
            {
              type: 'null',
            },
            {
              type: 'number',
            },
          ],
        },
        lng: {
          anyOf: [
            {
              type: 'null',
            },
            {
              type: 'number',
            },
          ],
        },
        radiusKm: {
          anyOf: [
            {
              type: 'null',
            },
            {
              type: 'number',
            },
          ],
        },
        area: {
          description: 'The area this version applied to (a drawn polygon or a circle); null: everywhere.',
          anyOf: [
            {
              type: 'null',
            },
            {
              type: 'object',
              properties: {
                type: {
                  type: 'string',
                  const: 'circle',
                },
                lat: {
                  type: 'number',
                },
                lng: {
                  type: 'number',
                },
                radiusKm: {
                  type: 'number',
                },
                description: {
                  type: 'string',
                },
              },
              required: ['type', 'lat', 'lng', 'radiusKm'],
            },
            {
              type: 'object',
              properties: {
                type: {
                  type: 'string',
                  const: 'polygon',
                },
                points: {
                  type: 'array',
                  items: {
                    type: 'array',
                    items: {
                      type: 'number',
                    },
                  },
                },
                description: {
                  type: 'string',
                },
              },
              required: ['type', 'points'],
            },
            {
              type: 'object',
              properties: {
                type: {
                  type: 'string',
                  const: 'multi',
                },
                parts: {
                  type: 'array',
                  items: {
                    $ref: '#/components/schemas/AlertAreaPart',
                  },
                },
              },
              required: ['type', 'parts'],
            },
          ],
        },
        changed: {
          type: 'array',
          items: {
            type: 'string',
            enum: ['severity', 'title', 'message', 'translations', 'expiresAt', 'area'],
          },
        },
        actorEmail: {
          anyOf: [
            {
              type: 'null',
            },
            {
              type: 'string',
            },
          ],
        },
        at: {
          type: 'string',
        },
        notified: {
          anyOf: [
            {
              type: 'null',
            },
            {
              type: 'number',
            },
          ],
        },
      },
      required: [
        'version',
        'kind',
        'title',
        'message',
        'severity',
        'expiresAt',
        'locationName',
        'lat',
        'lng',
        'radiusKm',
        'area',
        'changed',
        'actorEmail',
        'at',
        'notified',
      ],
    },
    ApiErrorBody: {
      description: 'The body of every error of the Beacon services (libs/common ErrorBody). `code` is stable and machine-readable.',
      type: 'object',
      properties: {
        statusCode: {
          type: 'number',
        },
        code: {
          $ref: '#/components/schemas/ErrorCode',
        },
        message: {
          type: 'string',
        },
        details: {},
      },
      required: ['statusCode', 'code', 'message'],
    },
    ApprovalPolicy: {
      type: 'object',
      properties: {
        mode: {
          description: 'off: nothing waits; severity: alerts at or above `minSeverity`; all: every alert.',
          type: 'string',
          enum: ['severity', 'all', 'off'],
        },
        minSeverity: {
          type: 'string',
          enum: ['low', 'medium', 'high', 'critical'],
        },
        capAutomatic: {
          description: "A CAP source's automatic sends wait too, whatever the mode.",
          type: 'boolean',
        },
        updatedAt: {
          anyOf: [
            {
              type: 'null',
            },
            {
              type: 'string',
            },
          ],
        },
        updatedBy: {
          anyOf: [
            {
              type: 'null',
            },
            {
              type: 'string',
            },
          ],
        },
      },
      required: ['mode', 'minSeverity', 'capAutomatic', 'updatedAt', 'updatedBy'],
    },
    ApprovalReason: {
      description: "Why an alert waits for approval: its severity, the every-alert policy, or a CAP source's automatic send.",
      type: 'string',
      enum: ['cap', 'severity', 'all'],
    },
    AudienceByTarget: {
      description:
        "An audience preview's breakdown by what the alert targets (issue #42): how many people each part concerns on its\nown. A person in two parts is counted in each here and once in the preview's `concerned`, so the parts may add up\nto more than it.\n\n- `area`: the people its area concerns (its type and severity rules, their homes); null when it has no area.\n- `areaParts`: for an area of several parts, the same by part in the area's order; absent otherwise.\n- `groups`: each targeted group: its members whom the alert concerns (every member: a group's alert goes to them\n  whatever their type and severity choices and wherever they live), of them external contacts.",
      type: 'object',
      properties: {
        area: {
          anyOf: [
            {
              type: 'null',
            },
            {
              type: 'number',
            },
          ],
        },
        areaParts: {
          type: 'array',
          items: {
            type: 'number',
          },
        },
        groups: {
          type: 'array',
          items: {
            type: 'object',
            properties: {
              id: {
                type: 'string',
              },
              name: {
                type: 'string',
              },
              concerned: {
                type: 'number',
              },
              external: {
                type: 'number',
              },
            },
            required: ['id', 'name', 'concerned', 'external'],
          },
        },
      },
      required: ['area', 'groups'],
    },
    AuthApiError: {
      description: "An error of the auth API (/auth/v1), in the hosted auth service's shape its client library parses.",
      type: 'object',
      properties: {
        code: {
          anyOf: [
            {
              type: 'string',
              enum: [
                'not_found',
                'conflict',
                'validation_failed',
                'bad_json',
                'email_exists',
                'user_already_exists',
                'bad_jwt',
                'not_admin',
                'no_authorization',
                'user_not_found',
                'session_not_found',
                'refresh_token_not_found',
                'refresh_token_already_used',
                'invalid_credentials',
                'email_not_confirmed',
                'user_banned',
                'weak_password',
                'same_password',
                'over_request_rate_limit',
                'over_email_send_rate_limit',
                'otp_expired',
                'mfa_factor_not_found',
                'mfa_factor_name_conflict',
                'too_many_enrolled_mfa_factors',
                'mfa_challenge_expired',
                'mfa_verification_failed',
                'mfa_ip_address_mismatch',
                'insufficient_aal',
                'phone_provider_disabled',
                'email_address_invalid',
                'unexpected_failure',
              ],
            },
            {
              type: 'number',
            },
          ],
        },
        error_code: {
          type: 'string',
          enum: [
            'not_found',
            'conflict',
            'validation_failed',
            'bad_json',
            'email_exists',
            'user_already_exists',
            'bad_jwt',
            'not_admin',
            'no_authorization',
            'user_not_found',
            'session_not_found',
            'refresh_token_not_found',
            'refresh_token_already_used',
            'invalid_credentials',
            'email_not_confirmed',
            'user_banned',
            'weak_password',
            'same_password',
            'over_request_rate_limit',
            'over_email_send_rate_limit',
            'otp_expired',
            'mfa_factor_not_found',
            'mfa_factor_name_conflict',
            'too_many_enrolled_mfa_factors',
            'mfa_challenge_expired',
            'mfa_verification_failed',
            'mfa_ip_address_mismatch',
            'insufficient_aal',
            'phone_provider_disabled',
            'email_address_invalid',
            'unexpected_failure',
          ],
        },
        msg: {
          type: 'string',
        },
        message: {
          type: 'string',
        },
      },
      required: ['code'],
    },
    AuthSettings: {
      description: 'Which sign-in methods exist (GET /auth/v1/settings).',
      type: 'object',
      properties: {
        external: {
          type: 'object',
          properties: {
            email: {
              type: 'boolean',
            },
            phone: {
              type: 'boolean',
            },
            anonymous_users: {
              type: 'boolean',
            },
          },
          required: ['email', 'phone', 'anonymous_users'],
        },
        disable_signup: {
          type: 'boolean',
        },
        mailer_autoconfirm: {
          type: 'boolean',
        },
        phone_autoconfirm: {
          type: 'boolean',
        },
        sms_provider: {
          type: 'string',
        },
        saml_enabled: {
          type: 'boolean',
        },
      },
      required: ['external', 'disable_signup', 'mailer_autoconfirm', 'phone_autoconfirm', 'sms_provider', 'saml_enabled'],
    },
    Camera: {
      description: 'A camera as GET /api/traffic/cameras returns it (spec entity Camera).',
      type: 'object',
      properties: {
        cameraId: {
          type: 'string',
        },
        roadway: {
          type: 'string',
        },
        direction: {
          anyOf: [
            {
              type: 'null',
            },
            {
              type: 'string',
            },
          ],
        },
        description: {
          anyOf: [
            {
              type: 'null',
            },
            {
              type: 'string',
            },
          ],
        },
        lat: {
          anyOf: [
            {
              type: 'null',
            },
            {
              type: 'number',
            },
          ],
        },
        lng: {
          anyOf: [
            {
              type: 'null',
            },
            {
              type: 'number',
            },
          ],
        },
        imageUrl: {
          anyOf: [
            {
              type: 'null',
            },
            {
              type: 'string',
            },
          ],
        },
        lastUpdated: {
          description: "The source's last report; null when unknown.",
          anyOf: [
            {
              type: 'null',
            },
            {
              type: 'string',
            },
          ],
        },
      },
      required: ['cameraId', 'roadway', 'direction', 'description', 'lat', 'lng', 'imageUrl', 'lastUpdated'],
    },
    CapOrigin: {
      description: 'Where an alert made from a CAP message came from (GET /api/alerts/:id/cap-origin).',
      type: 'object',
      properties: {
        sourceId: {
          type: 'string',
        },
        sourceName: {
          type: 'string',
        },
        sender: {
          type: 'string',
        },
        identifier: {
          type: 'string',
        },
        sent: {
          type: 'string',
        },
        url: {
          description: "The original message's address, when it was fetched from one (not embedded in a feed).",
          anyOf: [
            {
              type: 'null',
            },
            {
              type: 'string',
            },
          ],
        },
      },
      required: ['sourceId', 'sourceName', 'sender', 'identifier', 'sent', 'url'],
    },
    CapPollResult: {
      description: 'The result of a poll (POST /api/alerts/admin/cap-sources/:id/poll).',
      type: 'object',
      properties: {
        fetched: {
          type: 'number',
        },
        created: {
          type: 'number',
        },
        updated: {
          type: 'number',
        },
        cancelled: {
          type: 'number',
        },
        ignored: {
          type: 'number',
        },
        refused: {
          type: 'number',
        },
        leftForNextPoll: {
          description:
            "Linked messages not fetched, left for the next poll: the poll's deadline (CAP_POLL_DEADLINE_SECONDS) passed or the feed host's rate limit was reached.",
          type: 'number',
        },
      },
      required: ['fetched', 'created', 'updated', 'cancelled', 'ignored', 'refused', 'leftForNextPoll'],
    },
    CapSource: {
      description: 'A CAP feed an admin follows (issue 23), with its health.',
      type: 'object',
      properties: {
        id: {
          type: 'string',
        },
        name: {
          type: 'string',
        },
        url: {
          type: 'string',
        },
        intervalSeconds: {
          type: 'number',
        },
        categories: {
          description: 'Empty: every category.',
          type: 'array',
          items: {
            type: 'string',
          },
        },
        severities: {
          description: 'Empty: every severity.',
          type: 'array',
          items: {
            type: 'string',
          },
        },
        mode: {
          type: 'string',
          enum: ['draft', 'send', 'send_extreme_immediate'],
        },
        channels: {
          type: 'array',
          items: {
            type: 'string',
            enum: ['push', 'sms', 'email', 'voice'],
          },
        },
        enabled: {
          type: 'boolean',
        },
        health: {
          type: 'object',
          properties: {
            state: {
              type: 'string',
              enum: ['ok', 'failing', 'never_fetched', 'disabled'],
            },
            lastFetchAt: {
              anyOf: [
                {
                  type: 'null',
                },
                {
                  type: 'string',
                },
              ],
            },
            lastSuccessAt: {
              anyOf: [
                {
                  type: 'null',
                },
                {
                  type: 'string',
                },
              ],
            },
            lastError: {
              anyOf: [
                {
                  type: 'null',
                },
                {
                  type: 'string',
                },
              ],
            },
            failures: {
              type: 'number',
            },
            nextFetchAt: {
              type: 'string',
            },
            recentRefusals: {
              type: 'array',
              items: {
                type: 'object',
                properties: {
                  at: {
                    type: 'string',
                  },
                  url: {
                    anyOf: [
                      {
                        type: 'null',
                      },
                      {
                        type: 'string',
                      },
                    ],
                  },
                  reason: {
                    type: 'string',
                  },
                },
                required: ['at', 'url', 'reason'],
              },
            },
          },
          required: ['state', 'lastFetchAt', 'lastSuccessAt', 'lastError', 'failures', 'nextFetchAt', 'recentRefusals'],
        },
      },
      required: ['id', 'name', 'url', 'intervalSeconds', 'categories', 'severities', 'mode', 'channels', 'enabled', 'health'],
    },
    ChannelAudience: {
      description: 'One channel of an audience preview: whom it would reach, how many of them later (held), and whether it can send.',
      type: 'object',
      properties: {
        recipients: {
          type: 'number',
        },
        held: {
          description: 'Of the recipients, those whose quiet hours, digest or quiet weekend hold the alert until later.',
          type: 'number',
        },
        configured: {
          description: 'False when the channel cannot deliver now (e.g. no SMS webhook): `reason` says why and what to do.',
          type: 'boolean',
        },
        reason: {
          type: 'string',
        },
      },
      required: ['recipients', 'held', 'configured'],
    },
    ChannelCounts: {
      type: 'object',
      properties: {
        pending: {
          type: 'number',
        },
        sent: {
          type: 'number',
        },
        delivered: {
          type: 'number',
        },
        failed: {
          type: 'number',
        },
        read: {
          type: 'number',
        },
        cancelled: {
          type: 'number',
        },
        held: {
          description:
            "Of the pending ones, those held until a later time (quiet hours, digest frequency, quiet weekend): counted\nwhen the summary is read, since it drops as their time comes without any row changing. Pending minus held is\nwhat is still on its way now. Absent where no summary was read (e.g. a screen's own placeholder).",
          type: 'number',
        },
        retrying: {
          description:
            'Of the pending ones, those that failed transiently and wait for (or are in) their next attempt: not stuck either,\nbut not on their way yet. The operations view says when (AlertOperations). Absent like `held`.',
          type: 'number',
        },
      },
      required: ['pending', 'sent', 'delivered', 'failed', 'read', 'cancelled'],
    },
    ChannelHealth: {
      description: "One channel's provider as the dashboard and the composer show it (GET /api/alerts/admin/channel-health).",
      type: 'object',
      properties: {
        channel: {
          type: 'string',
          enum: ['push', 'sms', 'email', 'voice'],
        },
        provider: {
          description: 'Which provider sends it: the push services, the SMS webhook, Twilio, the mail relay; null when none is set.',
          anyOf: [
            {
              type: 'string',
              enum: ['webhook', 'twilio', 'push_services', 'relay'],
            },
            {
              type: 'null',
            },
          ],
        },
        configured: {
          description: 'Set up and switched on.',
          type: 'boolean',
        },
        problem: {
          description: "Why it cannot send as saved, in the audience preview's words (null: it can).",
          anyOf: [
            {
              type: 'null',
            },
            {
              type: 'string',
            },
          ],
        },
        receipts: {
          description: 'Whether its provider sends receipts as configured (see ChannelReceipts).',
          type: 'boolean',
        },
        lastTest: {
          description: 'The last Test Connection of its provider.',
          anyOf: [
            {
              type: 'null',
            },
            {
              type: 'object',
              properties: {
                at: {
                  type: 'string',
                },
                ok: {
                  type: 'boolean',
                },
                message: {
                  type: 'string',
                },
              },
              required: ['at', 'ok', 'message'],
            },
          ],
        },
        lastError: {
          description: 'The last failure of a send on it, as the provider said it.',
          anyOf: [
            {
              type: 'null',
            },
            {
              type: 'object',
              properties: {
                at: {
                  type: 'string',
                },
                message: {
                  type: 'string',
                },
              },
              required: ['at', 'message'],
            },
          ],
        },
        receiptsLastHour: {
          description: 'Receipts recorded in the last hour.',
          type: 'number',
        },
        reachableNow: {
          description: 'People it can reach now: the channel on, with a number, address or subscribed browser (and not STOPped for SMS).',
          type: 'number',
        },
        stoppedNumbers: {
          description: 'SMS only: numbers that replied STOP and get no SMS.',
          type: 'number',
        },
      },
      required: ['channel', 'provider', 'configured', 'problem', 'receipts', 'lastTest', 'lastError', 'receiptsLastHour', 'reachableNow'],
    },
    ChannelHealthReport: {
      type: 'object',
      properties: {
        channels: {
          type: 'array',
          items: {
            $ref: '#/components/schemas/ChannelHealth',
          },
        },
        checkedAt: {
          type: 'string',
        },
      },
      required: ['channels', 'checkedAt'],
    },
    ChannelOperations: {
      description: "One channel of an alert's live operations: how fast it is going, when it will be done, and what waits for a retry.",
      type: 'object',
      properties: {
        ratePerSecond: {
          description: 'Successful deliveries per second over the last OPERATIONS_RATE_WINDOW_SECONDS: failures and retries are no pace (issue #38).',
          type: 'number',
        },
        attemptsPerSecond: {
          description: 'Every outcome (successes, failures, failures to be retried) per second over the same window: how fast the queue moves.',
          type: 'number',
        },
        etaSeconds: {
          description:
            'Seconds until the deliveries on their way now (pending, less held and retrying) are done at the pace the queue\nmoves (attemptsPerSecond); null when none are, or nothing moves.',
          anyOf: [
            {
              type: 'null',
            },
            {
              type: 'number',
            },
          ],
        },
        retrying: {
          description: 'Deliveries that failed transiently and wait for their next attempt (or are in it).',
          type: 'number',
        },
        nextAttemptAt: {
          description: 'The earliest next attempt among them; null when none waits.',
          anyOf: [
            {
              type: 'null',
            },
            {
              type: 'string',
            },
          ],
        },
        held: {
          description: "Deliveries held for the recipients' quiet hours, digests or quiet weekends, and when the first of them goes out.",
          type: 'number',
        },
        heldUntil: {
          anyOf: [
            {
              type: 'null',
            },
            {
              type: 'string',
            },
          ],
        },
      },
      required: ['ratePerSecond', 'etaSeconds', 'retrying', 'nextAttemptAt', 'held', 'heldUntil'],
    },
    CommunityComment: {
      type: 'object',
      properties: {
        id: {
          type: 'string',
        },
        postId: {
          type: 'string',
        },
        userId: {
          type: 'string',
        },
        parentId: {
          anyOf: [
            {
              type: 'null',
            },
            {
              type: 'string',
            },
          ],
        },
        content: {
          type: 'string',
        },
        likesCount: {
          type: 'number',
        },
        mine: {
          type: 'boolean',
        },
        createdAt: {
          type: 'string',
        },
      },
      required: ['id', 'postId', 'userId', 'parentId', 'content', 'likesCount', 'mine', 'createdAt'],
    },
    CommunityPost: {
      type: 'object',
      properties: {
        id: {
          type: 'string',
        },
        title: {
          type: 'string',
        },
        category: {
          type: 'string',
          enum: ['wrong-way-driver', 'other', 'traffic-tip', 'neighborhood-watch'],
        },
        description: {
          type: 'string',
        },
        imageUrl: {
          anyOf: [
            {
              type: 'null',
            },
            {
              type: 'string',
            },
          ],
        },
        lat: {
          type: 'number',
        },
        lng: {
          type: 'number',
        },
        locationName: {
          anyOf: [
            {
              type: 'null',
            },
            {
              type: 'string',
            },
          ],
        },
        userId: {
          type: 'string',
        },
        userEmail: {
          description: "Always empty: e-mail addresses are never published (kept for the spec's shape).",
          type: 'string',
          const: '',
        },
        likesCount: {
          type: 'number',
        },
        commentsCount: {
          type: 'number',
        },
        likedByMe: {
          type: 'boolean',
        },
        mine: {
          type: 'boolean',
        },
        status: {
          type: 'string',
          const: 'active',
        },
        createdAt: {
          type: 'string',
        },
        updatedAt: {
          type: 'string',
        },
      },
      required: [
        'id',
        'title',
        'category',
        'description',
        'imageUrl',
        'lat',
        'lng',
        'locationName',
        'userId',
        'userEmail',
        'likesCount',
        'commentsCount',
        'likedByMe',
        'mine',
        'status',
        'createdAt',
        'updatedAt',
      ],
    },
    CommunityStats: {
      type: 'object',
      properties: {
        members: {
          type: 'number',
        },
        postsThisWeek: {
          type: 'number',
        },
        commentsToday: {
          type: 'number',
        },
      },
      required: ['members', 'postsThisWeek', 'commentsToday'],
    },
    ConnectionTestResult: {
      description: 'What a connection test found; `message` says why when `ok` is false.',
      type: 'object',
      properties: {
        ok: {
          type: 'boolean',
        },
        provider: {
          type: 'string',
        },
        status: {
          anyOf: [
            {
              type: 'null',
            },
            {
              type: 'number',
            },
          ],
        },
        message: {
          type: 'string',
        },
        contacted: {
          description: 'Whether a provider was called: false when only keys and stored subscriptions were read (issue #38).',
          type: 'boolean',
        },
        checked: {
          description: 'What the test looked at: vapid_keys, subscriptions, provider_sign_in.',
          type: 'array',
          items: {
            type: 'string',
          },
        },
        devices: {
          description: 'Push: the browsers a push would go to now, the people they belong to, every stored one, and those failing.',
          type: 'object',
          properties: {
            browsers: {
              type: 'number',
            },
            people: {
              type: 'number',
            },
            subscribed: {
              type: 'number',
            },
            failing: {
              type: 'number',
            },
          },
          required: ['browsers', 'people', 'subscribed', 'failing'],
        },
        messageId: {
          description: 'A test e-mail the relay accepted: its Message-ID.',
          type: 'string',
        },
      },
      required: ['ok', 'message'],
    },
    ContactGroup: {
      description:
        "Contact groups (issue #42): named lists of people an alert can reach wherever they live (a school's staff, on-call\nteams, road crews), as Everbridge and Rave keep them. A member is a Beacon user (by account e-mail) or an external\ncontact who has no account (name, phone, e-mail, language), reached by SMS, voice and e-mail, never push.",
      type: 'object',
      properties: {
        id: {
          type: 'string',
        },
        name: {
          type: 'string',
        },
        description: {
          type: 'string',
        },
        memberCount: {
          description: 'Members in all, and of them, external contacts.',
          type: 'number',
        },
        externalCount: {
          type: 'number',
        },
        createdAt: {
          type: 'string',
        },
        updatedAt: {
          type: 'string',
        },
      },
      required: ['id', 'name', 'description', 'memberCount', 'externalCount', 'createdAt', 'updatedAt'],
    },
    ContactGroupAuditEntry: {
      description:
        'One change to a group, who made it and when. `details` by action: group_created/group_deleted { name, description? },\ngroup_updated { before: {name, description}, after: {name, description} }, member_added/member_removed\n{ memberId, kind, name, email, phone } (user members: userId and email), import_applied { created, updated,\nunchanged, rejected }.',
      type: 'object',
      properties: {
        id: {
          type: 'string',
        },
        action: {
          type: 'string',
          enum: ['group_created', 'group_updated', 'group_deleted', 'member_added', 'member_removed', 'import_applied'],
        },
        actorId: {
          anyOf: [
            {
              type: 'null',
            },
            {
              type: 'string',
            },
          ],
        },
        actorEmail: {
          anyOf: [
            {
              type: 'null',
            },
            {
              type: 'string',
            },
          ],
        },
        details: {
          type: 'object',
          properties: {},
          additionalProperties: {},
        },
        at: {
          type: 'string',
        },
      },
      required: ['id', 'action', 'actorId', 'actorEmail', 'details', 'at'],
    },
    ContactGroupAuditPage: {
      description: 'GET /api/alerts/admin/contact-groups/:id/audit: newest first.',
      type: 'object',
      properties: {
        items: {
          type: 'array',
          items: {
            $ref: '#/components/schemas/ContactGroupAuditEntry',
          },
        },
        total: {
          type: 'number',
        },
        page: {
          type: 'number',
        },
        pageSize: {
          type: 'number',
        },
      },
      required: ['items', 'total', 'page', 'pageSize'],
    },
    ContactGroupMember: {
      anyOf: [
        {
          type: 'object',
          properties: {
            id: {
              type: 'string',
            },
            kind: {
              type: 'string',
              const: 'user',
            },
            userId: {
              type: 'string',
            },
            email: {
              type: 'string',
            },
            name: {
              anyOf: [
                {
                  type: 'null',
                },
                {
                  type: 'string',
                },
              ],
            },
            addedAt: {
              type: 'string',
            },
          },
          required: ['id', 'kind', 'userId', 'email', 'name', 'addedAt'],
        },
        {
          type: 'object',
          properties: {
            id: {
              type: 'string',
            },
            kind: {
              type: 'string',
              const: 'external',
            },
            contactId: {
              type: 'string',
            },
            name: {
              type: 'string',
            },
            phone: {
              anyOf: [
                {
                  type: 'null',
                },
                {
                  type: 'string',
                },
              ],
            },
            email: {
              anyOf: [
                {
                  type: 'null',
                },
                {
                  type: 'string',
                },
              ],
            },
            language: {
              type: 'string',
              enum: ['en', 'es', 'fr', 'zh', 'vi', 'ko'],
            },
            addedAt: {
              type: 'string',
            },
          },
          required: ['id', 'kind', 'contactId', 'name', 'phone', 'email', 'language', 'addedAt'],
        },
      ],
    },
    ContactGroupMembersPage: {
      description: 'GET /api/alerts/admin/contact-groups/:id/members (paged like the other admin lists).',
      type: 'object',
      properties: {
        items: {
          type: 'array',
          items: {
            $ref: '#/components/schemas/ContactGroupMember',
          },
        },
        total: {
          type: 'number',
        },
        page: {
          type: 'number',
        },
        pageSize: {
          type: 'number',
        },
      },
      required: ['items', 'total', 'page', 'pageSize'],
    },
    ContactImportPreview: {
      description:
        'POST /api/alerts/admin/contact-groups/:id/import/preview (text/csv body): what the import would do, nothing written.\n`token` confirms exactly this preview: POST .../import with { token } applies it in one transaction, or answers\n409 import_preview_stale when the group or the file changed since. Rows that match a member already in the group\n(same phone or e-mail, normalised) are `unchanged` (or `updated` when their name or language differs); duplicates\nwithin the file are merged into the first and reported.\n(Server, issue #42: an update also takes a phone or e-mail the row gives that differs or was missing; a blank cell\nkeeps the stored value, a blank language too. `update` lists each member as it will be. The token is 409\nimport_preview_expired once applied, after CONTACT_IMPORT_PREVIEW_TTL_SECONDS, or for another group.)',
      type: 'object',
      properties: {
        token: {
          type: 'string',
        },
        create: {
          type: 'array',
          items: {
            $ref: '#/components/schemas/ContactRowInput',
          },
        },
        update: {
          type: 'array',
          items: {
            $ref: '#/components/schemas/ContactRowInput',
          },
        },
        unchanged: {
          type: 'number',
        },
        rejected: {
          type: 'array',
          items: {
            $ref: '#/components/schemas/ContactImportRejectedRow',
          },
        },
      },
      required: ['token', 'create', 'update', 'unchanged', 'rejected'],
    },
    ContactImportRejectedRow: {
      type: 'object',
      properties: {
        line: {
          description: '1-based line in the file, the header being line 1.',
          type: 'number',
        },
        values: {
          type: 'object',
          properties: {},
          additionalProperties: {
            type: 'string',
          },
        },
        code: {
          $ref: '#/components/schemas/ContactRowProblemCode',
        },
        message: {
          type: 'string',
        },
      },
      required: ['line', 'values', 'code', 'message'],
    },
    ContactImportResult: {
      type: 'object',
      properties: {
        created: {
          type: 'number',
        },
        updated: {
          type: 'number',
        },
        unchanged: {
          type: 'number',
        },
        rejected: {
          type: 'number',
        },
      },
      required: ['created', 'updated', 'unchanged', 'rejected'],
    },
    ContactRowInput: {
      description: "What one member row of a CSV (or the add-member form) says; the CSV's header row names these columns.",
      type: 'object',
      properties: {
        name: {
          type: 'string',
        },
        phone: {
          type: 'string',
        },
        email: {
          type: 'string',
        },
        language: {
          description: 'One of LANGUAGES; English when blank.',
          type: 'string',
        },
      },
      required: ['name'],
    },
    ContactRowProblemCode: {
      description: 'Why a CSV row is not imported; `message` is what the console shows beside the row.',
      type: 'string',
      enum: [
        'missing_name',
        'missing_contact',
        'invalid_phone',
        'invalid_email',
        'invalid_language',
        'name_too_long',
        'duplicate_in_file',
        'conflicting_members',
      ],
    },
    DeliverySettings: {
      description: 'The delivery settings as admins see them; secrets only masked.',
      type: 'object',
      properties: {
        push: {
          type: 'object',
          properties: {
            enabled: {
              type: 'boolean',
            },
            username: {
              type: 'string',
            },
            apiKeySet: {
              type: 'boolean',
            },
            apiKeyMasked: {
              type: 'string',
            },
          },
          required: ['enabled', 'username', 'apiKeySet', 'apiKeyMasked'],
        },
        webhook: {
          description:
            "`secretSet`: the receipt secret that signs the webhook's receipts and replies (X-Beacon-Signature) is set; the\nsecret itself is shown once, in `newSecret` of the PUT that generated it (`webhook.rotateSecret: true`).",
          type: 'object',
          properties: {
            enabled: {
              type: 'boolean',
            },
            url: {
              type: 'string',
            },
            secretSet: {
              type: 'boolean',
            },
            newSecret: {
              type: 'string',
            },
          },
          required: ['enabled', 'url'],
        },
        email: {
          description: "`eventsKeySet`: the relay's event-webhook signing key (bounces, complaints, deliveries) is set; write-only.",
          type: 'object',
          properties: {
            enabled: {
              type: 'boolean',
            },
            url: {
              type: 'string',
            },
            from: {
              type: 'string',
            },
            eventsKeySet: {
              type: 'boolean',
            },
          },
          required: ['enabled', 'url', 'from'],
        },
        sms: {
          description: 'Which provider sends SMS (issue #39): the generic webhook or the Twilio-compatible account.',
          type: 'object',
          properties: {
            provider: {
              type: 'string',
              enum: ['webhook', 'twilio'],
            },
          },
          required: ['provider'],
        },
        twilio: {
          $ref: '#/components/schemas/TwilioSettingsView',
        },
        voice: {
          description: 'Voice calls (through the Twilio-compatible account).',
          type: 'object',
          properties: {
            enabled: {
              type: 'boolean',
            },
          },
          required: ['enabled'],
        },
        callbackUrls: {
          $ref: '#/components/schemas/ProviderCallbackUrls',
        },
        updatedAt: {
          anyOf: [
            {
              type: 'null',
            },
            {
              type: 'string',
            },
          ],
        },
        readiness: {
          description:
            'Why each channel cannot deliver as saved (null: it can), as the audience preview and the senders say it, e.g. a\nrelay at an address the SSRF rule refuses (issue #38).',
          type: 'object',
          properties: {
            push: {
              anyOf: [
                {
                  type: 'null',
                },
                {
                  type: 'string',
                },
              ],
            },
            sms: {
              anyOf: [
                {
                  type: 'null',
                },
                {
                  type: 'string',
                },
              ],
            },
            email: {
              anyOf: [
                {
                  type: 'null',
                },
                {
                  type: 'string',
                },
              ],
            },
            voice: {
              anyOf: [
                {
                  type: 'null',
                },
                {
                  type: 'string',
                },
              ],
            },
          },
          required: ['push', 'sms', 'email'],
        },
        environment: {
          description: 'The settings that come from the environment and cannot be changed here.',
          type: 'array',
          items: {
            type: 'string',
          },
        },
      },
      required: ['push', 'webhook', 'email', 'updatedAt', 'environment'],
    },
    ErrorCode: {
      description: "Every code the web app can receive; `network_error` is the web's own, for a request that got no answer.",
      type: 'string',
      enum: [
        'bad_request',
        'unauthorized',
        'forbidden',
        'not_found',
        'method_not_allowed',
        'conflict',
        'payload_too_large',
        'unsupported_media_type',
        'unprocessable_entity',
        'too_many_requests',
        'internal_error',
        'error',
        'validation_failed',
        'malformed_json',
        'invalid_characters',
        'rate_limited',
        'invalid_url',
        'unresolvable_host',
        'private_address',
        'token_missing',
        'token_expired',
        'token_invalid',
        'session_revoked',
        'session_check_unavailable',
        'service_unavailable',
        'bad_gateway',
        'alert_not_found',
        'invalid_alert_id',
        'invalid_alert_status',
        'invalid_idempotency_key',
        'type_required',
        'incomplete_location',
        'severity_priority_mismatch',
        'expiry_in_past',
        'invalid_time_zone',
        'help_request_not_found',
        'idempotency_key_reused',
        'invalid_receipt_event',
        'invalid_receipt',
        'phone_number_required',
        'invalid_push_keys',
        'invalid_push_endpoint',
        'unsupported_push_service',
        'push_credentials_missing',
        'webhook_not_configured',
        'channels_disabled',
        'no_test_target',
        'channel_not_configured',
        'alert_not_dispatched',
        'nothing_to_update',
        'alert_update_conflict',
        'alert_edited_elsewhere',
        'revision_required',
        'invalid_area',
        'area_and_location',
        'area_too_few_points',
        'area_too_many_points',
        'area_point_out_of_range',
        'area_self_intersecting',
        'area_too_large',
        'area_too_many_parts',
        'geocoder_not_configured',
        'geocoder_unavailable',
        'sms_too_long',
        'template_not_found',
        'template_name_taken',
        'cap_source_not_found',
        'cap_origin_not_found',
        'cap_area_required',
        'smtp_option_not_allowed',
        'mail_relay_timeout',
        'audience_changed',
        'audience_preview_expired',
        'audience_preview_mismatch',
        'invalid_audience_token',
        'area_required',
        'area_and_everyone',
        'approval_by_author',
        'approval_reason_required',
        'break_glass_reason_required',
        'send_at_in_past',
        'send_at_too_far',
        'resolution_note_required',
        'send_at_after_expiry',
        'send_at_with_draft',
        'test_channels_required',
        'test_channel_disabled',
        'test_group_member_not_found',
        'invalid_signature',
        'invalid_twilio_sid',
        'invalid_phone_number',
        'twilio_credentials_missing',
        'alert_in_effect',
        'contact_group_not_found',
        'alert_group_not_found',
        'alert_too_many_groups',
        'groups_and_everyone',
        'contact_group_name_taken',
        'contact_member_not_found',
        'contact_member_exists',
        'contact_user_not_found',
        'invalid_contact',
        'import_too_large',
        'import_too_many_rows',
        'import_csv_invalid',
        'import_header_invalid',
        'import_preview_stale',
        'import_preview_expired',
        'incident_not_found',
        'invalid_transition',
        'status_changed',
        'location_required',
        'post_not_found',
        'parent_not_found',
        'bucket_not_found',
        'file_required',
        'file_too_large',
        'multipart_required',
        'unexpected_field',
        'invalid_upload',
        'invalid_image',
        'upload_busy',
        'upload_not_found',
        'image_not_found',
        'product_not_found',
        'invalid_product_id',
        'invalid_price_range',
        'affiliate_url_required',
        'camera_image_not_found',
        'ingest_disabled',
        'bad_json',
        'email_exists',
        'user_already_exists',
        'bad_jwt',
        'not_admin',
        'no_authorization',
        'user_not_found',
        'session_not_found',
        'refresh_token_not_found',
        'refresh_token_already_used',
        'invalid_credentials',
        'email_not_confirmed',
        'user_banned',
        'weak_password',
        'same_password',
        'over_request_rate_limit',
        'over_email_send_rate_limit',
        'otp_expired',
        'mfa_factor_not_found',
        'mfa_factor_name_conflict',
        'too_many_enrolled_mfa_factors',
        'mfa_challenge_expired',
        'mfa_verification_failed',
        'mfa_ip_address_mismatch',
        'insufficient_aal',
        'phone_provider_disabled',
        'email_address_invalid',
        'unexpected_failure',
        'network_error',
      ],
    },
    EventSeverity: {
      type: 'string',
      enum: ['low', 'medium', 'high'],
    },
    FailureReason: {
      description: 'Deliveries of one channel that failed for one reason: for good (`failed`), or for now and to be retried (`retrying`).',
      type: 'object',
      properties: {
        channel: {
          type: 'string',
          enum: ['push', 'sms', 'email', 'voice'],
        },
        reason: {
          type: 'string',
        },
        failed: {
          type: 'number',
        },
        retrying: {
          type: 'number',
        },
      },
      required: ['channel', 'reason', 'failed', 'retrying'],
    },
    GeocodeResult: {
      description: 'One place the address search found (GET /api/alerts/geocode?q=).',
      type: 'object',
      properties: {
        label: {
          type: 'string',
        },
        lat: {
          type: 'number',
        },
        lng: {
          type: 'number',
        },
      },
      required: ['label', 'lat', 'lng'],
    },
    HelpRequest: {
      description: "A user's request for help from an alert (GET /api/alerts/admin/help-requests), newest first.",
      type: 'object',
      properties: {
        id: {
          type: 'string',
        },
        alertId: {
          type: 'string',
        },
        alertTitle: {
          type: 'string',
        },
        alertLocationName: {
          description: 'The place name the alert was sent with (issue #38); null when it named none.',
          anyOf: [
            {
              type: 'null',
            },
            {
              type: 'string',
            },
          ],
        },
        userId: {
          type: 'string',
        },
        userEmail: {
          anyOf: [
            {
              type: 'null',
            },
            {
              type: 'string',
            },
          ],
        },
        phone: {
          description: "The phone number on the person's preferences (staff only, like the whole list); null when they gave none.",
          anyOf: [
            {
              type: 'null',
            },
            {
              type: 'string',
            },
          ],
        },
        message: {
          description: "'' when the user wrote nothing.",
          type: 'string',
        },
        lat: {
          description: 'The location they shared with the request; null when they shared none.',
          anyOf: [
            {
              type: 'null',
            },
            {
              type: 'number',
            },
          ],
        },
        lng: {
          anyOf: [
            {
              type: 'null',
            },
            {
              type: 'number',
            },
          ],
        },
        place: {
          description:
            'Where to find them: the location they shared, else their home as it was when they asked (the place the alert was\nsent to them for); null when neither is known (no home set: the alert reached them wherever they were).',
          anyOf: [
            {
              type: 'null',
            },
            {
              $ref: '#/components/schemas/HelpRequestPlace',
            },
          ],
        },
        status: {
          type: 'string',
          enum: ['open', 'resolved'],
        },
        createdAt: {
          type: 'string',
        },
        resolution: {
          description: "Who resolved it, when, and their note; null while open (and for requests resolved before notes existed: note '').",
          anyOf: [
            {
              type: 'null',
            },
            {
              $ref: '#/components/schemas/HelpRequestResolution',
            },
          ],
        },
      },
      required: ['id', 'alertId', 'userId', 'userEmail', 'message', 'lat', 'lng', 'status', 'createdAt'],
    },
    HelpRequestPlace: {
      type: 'object',
      properties: {
        source: {
          type: 'string',
          enum: ['shared', 'home'],
        },
        lat: {
          type: 'number',
        },
        lng: {
          type: 'number',
        },
      },
      required: ['source', 'lat', 'lng'],
    },
    HelpRequestResolution: {
      type: 'object',
      properties: {
        note: {
          type: 'string',
        },
        by: {
          anyOf: [
            {
              type: 'null',
            },
            {
              type: 'string',
            },
          ],
        },
        byEmail: {
          anyOf: [
            {
              type: 'null',
            },
            {
              type: 'string',
            },
          ],
        },
        at: {
          anyOf: [
            {
              type: 'null',
            },
            {
              type: 'string',
            },
          ],
        },
      },
      required: ['note', 'by', 'byEmail', 'at'],
    },
    HomeLocation: {
      description:
        "Where the person lives: the point eligibility uses, and the place's name as they chose it (an address or place\nfound through the geocoder, or the name of the place their device reported); null or absent when it has none.",
      type: 'object',
      properties: {
        lat: {
          type: 'number',
        },
        lng: {
          type: 'number',
        },
        name: {
          anyOf: [
            {
              type: 'null',
            },
            {
              type: 'string',
            },
          ],
        },
      },
      required: ['lat', 'lng'],
    },
    IdentityFactor: {
      type: 'object',
      properties: {
        id: {
          type: 'string',
        },
        friendly_name: {
          type: 'string',
        },
        factor_type: {
          type: 'string',
          const: 'totp',
        },
        status: {
          type: 'string',
          enum: ['unverified', 'verified'],
        },
        created_at: {
          type: 'string',
        },
        updated_at: {
          type: 'string',
        },
      },
      required: ['id', 'factor_type', 'status'],
    },
    IdentityLink: {
      type: 'object',
      properties: {
        identity_id: {
          type: 'string',
        },
        id: {
          type: 'string',
        },
        user_id: {
          type: 'string',
        },
        identity_data: {
          type: 'object',
          properties: {
            email: {
              type: 'string',
            },
            email_verified: {
              type: 'boolean',
            },
            phone_verified: {
              type: 'boolean',
            },
            sub: {
              type: 'string',
            },
          },
          required: ['email', 'email_verified', 'phone_verified', 'sub'],
        },
        provider: {
          type: 'string',
        },
        last_sign_in_at: {
          type: 'string',
        },
        created_at: {
          type: 'string',
        },
        updated_at: {
          type: 'string',
        },
        email: {
          type: 'string',
        },
      },
      required: ['identity_id', 'id', 'user_id', 'identity_data', 'provider', 'email'],
    },
    IdentitySession: {
      description: 'A session: the access token (ES256 JWT), its lifetime and the opaque refresh token, rotated on every use.',
      type: 'object',
      properties: {
        access_token: {
          type: 'string',
        },
        token_type: {
          type: 'string',
          const: 'bearer',
        },
        expires_in: {
          type: 'number',
        },
        expires_at: {
          type: 'number',
        },
        refresh_token: {
          type: 'string',
        },
        user: {
          $ref: '#/components/schemas/IdentityUser',
        },
        weak_password: {
          type: 'object',
          properties: {
            message: {
              type: 'string',
            },
            reasons: {
              type: 'array',
              items: {
                type: 'string',
              },
            },
          },
          required: ['message', 'reasons'],
        },
      },
      required: ['access_token', 'token_type', 'expires_in', 'expires_at', 'refresh_token', 'user'],
    },
    IdentityUser: {
      description: 'A user as the auth API presents one.',
      type: 'object',
      properties: {
        id: {
          type: 'string',
        },
        aud: {
          type: 'string',
        },
        role: {
          type: 'string',
        },
        email: {
          type: 'string',
        },
        email_confirmed_at: {
          type: 'string',
        },
        phone: {
          type: 'string',
        },
        confirmation_sent_at: {
          type: 'string',
        },
        confirmed_at: {
          type: 'string',
        },
        recovery_sent_at: {
          type: 'string',
        },
        new_email: {
          type: 'string',
        },
        email_change_sent_at: {
          type: 'string',
        },
        last_sign_in_at: {
          type: 'string',
        },
        banned_until: {
          type: 'string',
        },
        app_metadata: {
          type: 'object',
          properties: {
            provider: {
              type: 'string',
            },
            providers: {
              type: 'array',
              items: {
                type: 'string',
              },
            },
            role: {
              type: 'string',
              enum: ['admin', 'user', 'viewer', 'publisher', 'approver'],
            },
          },
          required: ['provider', 'providers', 'role'],
        },
        user_metadata: {
          type: 'object',
          properties: {},
          additionalProperties: {},
        },
        identities: {
          type: 'array',
          items: {
            $ref: '#/components/schemas/IdentityLink',
          },
        },
        factors: {
          type: 'array',
          items: {
            $ref: '#/components/schemas/IdentityFactor',
          },
        },
        created_at: {
          type: 'string',
        },
        updated_at: {
          type: 'string',
        },
        is_anonymous: {
          type: 'boolean',
        },
      },
      required: ['id', 'aud', 'role', 'email', 'phone', 'app_metadata', 'user_metadata', 'identities', 'is_anonymous'],
    },
    IdentityUserList: {
      type: 'object',
      properties: {
        users: {
          type: 'array',
          items: {
            $ref: '#/components/schemas/IdentityUser',
          },
        },
        aud: {
          type: 'string',
        },
      },
      required: ['users', 'aud'],
    },
    Incident: {
      type: 'object',
      properties: {
        id: {
          type: 'string',
        },
        type: {
          type: 'string',
          enum: ['crime', 'traffic-hazard', 'accident', 'wrong-way-driver', 'other'],
        },
        description: {
          type: 'string',
        },
        locationName: {
          anyOf: [
            {
              type: 'null',
            },
            {
              type: 'string',
            },
          ],
        },
        lat: {
          type: 'number',
        },
        lng: {
          type: 'number',
        },
        photoUrl: {
          anyOf: [
            {
              type: 'null',
            },
            {
              type: 'string',
            },
          ],
        },
        status: {
          type: 'string',
          enum: ['pending', 'rejected', 'resolved', 'verified'],
        },
        reportedBy: {
          description: "The reporter's id: present for the reporter and for admins only.",
          anyOf: [
            {
              type: 'null',
            },
            {
              type: 'string',
            },
          ],
        },
        mine: {
          description: 'True when the caller reported it.',
          type: 'boolean',
        },
        autoApproved: {
          type: 'boolean',
        },
        moderatedAt: {
          anyOf: [
            {
              type: 'null',
            },
            {
              type: 'string',
            },
          ],
        },
        moderationNote: {
          anyOf: [
            {
              type: 'null',
            },
            {
              type: 'string',
            },
          ],
        },
        createdAt: {
          type: 'string',
        },
        updatedAt: {
          type: 'string',
        },
        distanceM: {
          description: 'Metres from the query point (nearby and duplicate queries only).',
          type: 'number',
        },
      },
      required: [
        'id',
        'type',
        'description',
        'locationName',
        'lat',
        'lng',
        'photoUrl',
        'status',
        'reportedBy',
        'mine',
        'autoApproved',
        'moderatedAt',
        'moderationNote',
        'createdAt',
        'updatedAt',
      ],
    },
    IncidentPage: {
      type: 'object',
      properties: {
        items: {
          type: 'array',
          items: {
            $ref: '#/components/schemas/Incident',
          },
        },
        total: {
          type: 'number',
        },
      },
      required: ['items', 'total'],
    },
    IncidentReporter: {
      description: 'Who made a report, as the incidents service knows it (admins only).',
      type: 'object',
      properties: {
        id: {
          type: 'string',
        },
        email: {
          description: "The e-mail the reporter's token carried when they reported; null for reports made before it was recorded.",
          anyOf: [
            {
              type: 'null',
            },
            {
              type: 'string',
            },
          ],
        },
        history: {
          $ref: '#/components/schemas/ReporterHistory',
        },
      },
      required: ['id', 'email', 'history'],
    },
    IngestRun: {
      description: 'One pull of the 511 source, with what it did to cameras and events.',
      type: 'object',
      properties: {
        id: {
          type: 'string',
        },
        source: {
          type: 'string',
        },
        reason: {
          type: 'string',
        },
        status: {
          type: 'string',
          enum: ['rate_limited', 'failed', 'ok', 'partial'],
        },
        startedAt: {
          type: 'string',
        },
        finishedAt: {
          type: 'string',
        },
        report: {
          type: 'object',
          properties: {},
          additionalProperties: {},
        },
      },
      required: ['id', 'source', 'reason', 'status', 'startedAt', 'finishedAt', 'report'],
    },
    JsonWebKeySet: {
      description: 'The public keys access tokens are verified with (RFC 7517).',
      type: 'object',
      properties: {
        keys: {
          type: 'array',
          items: {
            type: 'object',
            properties: {
              kty: {
                type: 'string',
              },
              kid: {
                type: 'string',
              },
              alg: {
                type: 'string',
              },
              use: {
                type: 'string',
              },
              crv: {
                type: 'string',
              },
              x: {
                type: 'string',
              },
              y: {
                type: 'string',
              },
            },
            additionalProperties: {},
          },
        },
      },
      required: ['keys'],
    },
    LikeResult: {
      type: 'object',
      properties: {
        postId: {
          type: 'string',
        },
        liked: {
          type: 'boolean',
        },
        likesCount: {
          type: 'number',
        },
      },
      required: ['postId', 'liked', 'likesCount'],
    },
    MfaChallenge: {
      type: 'object',
      properties: {
        id: {
          type: 'string',
        },
        type: {
          type: 'string',
        },
        expires_at: {
          type: 'number',
        },
      },
      required: ['id', 'type', 'expires_at'],
    },
    ModerationIncident: {
      description: 'A report in the moderation queue: the report and its reporter with their track record.',
      type: 'object',
      properties: {
        reporter: {
          $ref: '#/components/schemas/IncidentReporter',
        },
        id: {
          type: 'string',
        },
        type: {
          type: 'string',
          enum: ['crime', 'traffic-hazard', 'accident', 'wrong-way-driver', 'other'],
        },
        description: {
          type: 'string',
        },
        locationName: {
          anyOf: [
            {
              type: 'null',
            },
            {
              type: 'string',
            },
          ],
        },
        lat: {
          type: 'number',
        },
        lng: {
          type: 'number',
        },
        photoUrl: {
          anyOf: [
            {
              type: 'null',
            },
            {
              type: 'string',
            },
          ],
        },
        status: {
          type: 'string',
          enum: ['pending', 'rejected', 'resolved', 'verified'],
        },
        reportedBy: {
          description: "The reporter's id: present for the reporter and for admins only.",
          anyOf: [
            {
              type: 'null',
            },
            {
              type: 'string',
            },
          ],
        },
        mine: {
          description: 'True when the caller reported it.',
          type: 'boolean',
        },
        autoApproved: {
          type: 'boolean',
        },
        moderatedAt: {
          anyOf: [
            {
              type: 'null',
            },
            {
              type: 'string',
            },
          ],
        },
        moderationNote: {
          anyOf: [
            {
              type: 'null',
            },
            {
              type: 'string',
            },
          ],
        },
        createdAt: {
          type: 'string',
        },
        updatedAt: {
          type: 'string',
        },
        distanceM: {
          description: 'Metres from the query point (nearby and duplicate queries only).',
          type: 'number',
        },
      },
      required: [
        'reporter',
        'id',
        'type',
        'description',
        'locationName',
        'lat',
        'lng',
        'photoUrl',
        'status',
        'reportedBy',
        'mine',
        'autoApproved',
        'moderatedAt',
        'moderationNote',
        'createdAt',
        'updatedAt',
      ],
    },
    ModerationQueueCount: {
      description: "GET /incidents/moderation-queue/count: how many reports wait for moderation (the admin menu's badge).",
      type: 'object',
      properties: {
        pending: {
          type: 'number',
        },
      },
      required: ['pending'],
    },
    ModerationQueuePage: {
      description: 'GET /incidents/moderation-queue: pending reports, urgent types first (URGENT_INCIDENT_TYPES), then oldest first.',
      type: 'object',
      properties: {
        items: {
          type: 'array',
          items: {
            $ref: '#/components/schemas/ModerationIncident',
          },
        },
        total: {
          type: 'number',
        },
      },
      required: ['items', 'total'],
    },
    MyCommunityActivity: {
      description: 'One entry of GET /community/me/activity: something the caller did (or reached) in the community.',
      anyOf: [
        {
          type: 'object',
          properties: {
            kind: {
              type: 'string',
              const: 'post',
            },
            id: {
              type: 'string',
            },
            postId: {
              type: 'string',
            },
            title: {
              type: 'string',
            },
            category: {
              type: 'string',
              enum: ['wrong-way-driver', 'other', 'traffic-tip', 'neighborhood-watch'],
            },
            createdAt: {
              type: 'string',
            },
          },
          required: ['kind', 'id', 'postId', 'title', 'category', 'createdAt'],
        },
        {
          type: 'object',
          properties: {
            kind: {
              type: 'string',
              const: 'comment',
            },
            id: {
              type: 'string',
            },
            postId: {
              type: 'string',
            },
            postTitle: {
              type: 'string',
            },
            excerpt: {
              type: 'string',
            },
            createdAt: {
              type: 'string',
            },
          },
          required: ['kind', 'id', 'postId', 'postTitle', 'excerpt', 'createdAt'],
        },
        {
          type: 'object',
          properties: {
            kind: {
              type: 'string',
              const: 'level',
            },
            id: {
              type: 'string',
            },
            level: {
              type: 'number',
            },
            levelName: {
              type: 'string',
            },
            createdAt: {
              type: 'string',
            },
          },
          required: ['kind', 'id', 'level', 'levelName', 'createdAt'],
        },
      ],
    },
    MyCommunityActivityPage: {
      description: 'Newest first (id breaks ties); `total` is exact.',
      type: 'object',
      properties: {
        items: {
          type: 'array',
          items: {
            $ref: '#/components/schemas/MyCommunityActivity',
          },
        },
        total: {
          type: 'number',
        },
      },
      required: ['items', 'total'],
    },
    NotificationMethods: {
      description: 'The notification methods the preference screen shows, and the stored channel flags behind them.',
      type: 'object',
      properties: {
        push: {
          description: 'Web push (spec default on).',
          type: 'boolean',
        },
        voice: {
          description: 'Voice alerts: the web app reads arriving alerts aloud (spec default on); not a dispatcher channel.',
          type: 'boolean',
        },
        email: {
          description: 'Email digest (spec default off): the email channel.',
          type: 'boolean',
        },
        sms: {
          description: "SMS to phoneNumber (not on the part-1 screen; the spec's user_preferences has it).",
          type: 'boolean',
        },
      },
      required: ['push', 'voice', 'email', 'sms'],
    },
    OperationsBucket: {
      description: 'Outcomes of one channel in one OPERATIONS_BUCKET_SECONDS bucket (`at`: its start). `retried`: failed, to be retried.',
      type: 'object',
      properties: {
        at: {
          type: 'string',
        },
        channel: {
          type: 'string',
          enum: ['push', 'sms', 'email', 'voice'],
        },
        succeeded: {
          type: 'number',
        },
        failed: {
          type: 'number',
        },
        retried: {
          type: 'number',
        },
      },
      required: ['at', 'channel', 'succeeded', 'failed', 'retried'],
    },
    PossibleDuplicate: {
      type: 'object',
      properties: {
        id: {
          type: 'string',
        },
        type: {
          type: 'string',
          enum: ['crime', 'traffic-hazard', 'accident', 'wrong-way-driver', 'other'],
        },
        status: {
          type: 'string',
          enum: ['pending', 'rejected', 'resolved', 'verified'],
        },
        distanceM: {
          type: 'number',
        },
        createdAt: {
          type: 'string',
        },
        description: {
          description: "Only for verified reports or the caller's own; another user's pending text stays private.",
          anyOf: [
            {
              type: 'null',
            },
            {
              type: 'string',
            },
          ],
        },
        locationName: {
          anyOf: [
            {
              type: 'null',
            },
            {
              type: 'string',
            },
          ],
        },
      },
      required: ['id', 'type', 'status', 'distanceM', 'createdAt', 'description', 'locationName'],
    },
    Product: {
      type: 'object',
      properties: {
        id: {
          type: 'string',
        },
        name: {
          type: 'string',
        },
        description: {
          type: 'string',
        },
        price: {
          description: 'US dollars, two decimals.',
          type: 'number',
        },
        category: {
          type: 'string',
          enum: ['Emergency Kits', 'Safety Electronics', 'Safety Gear', 'Emergency Electronics', 'Medical Supplies', 'Traffic Control'],
        },
        images: {
          description: 'Image URLs; the first is shown on cards.',
          type: 'array',
          items: {
            type: 'string',
          },
        },
        featured: {
          type: 'boolean',
        },
        inStock: {
          type: 'boolean',
        },
        isAffiliate: {
          type: 'boolean',
        },
        affiliateUrl: {
          description: 'An https:// URL when isAffiliate.',
          anyOf: [
            {
              type: 'null',
            },
            {
              type: 'string',
            },
          ],
        },
        viewCount: {
          description: "Recorded views, the key of the 'popular' sort.",
          type: 'number',
        },
        createdAt: {
          type: 'string',
        },
        updatedAt: {
          type: 'string',
        },
      },
      required: [
        'id',
        'name',
        'description',
        'price',
        'category',
        'images',
        'featured',
        'inStock',
        'isAffiliate',
        'affiliateUrl',
        'viewCount',
        'createdAt',
        'updatedAt',
      ],
    },
    ProductAnalytics: {
      type: 'object',
      properties: {
        productId: {
          type: 'string',
        },
        totalViews: {
          type: 'number',
        },
        uniqueViews: {
          description: 'Distinct signed-in users who viewed the product.',
          type: 'number',
        },
        viewsThisWeek: {
          description: 'Views in the last 7 days (rolling).',
          type: 'number',
        },
        viewsToday: {
          description: 'Views in the last 24 hours (rolling).',
          type: 'number',
        },
      },
      required: ['productId', 'totalViews', 'uniqueViews', 'viewsThisWeek', 'viewsToday'],
    },
    ProductPage: {
      type: 'object',
      properties: {
        products: {
          type: 'array',
          items: {
            $ref: '#/components/schemas/Product',
          },
        },
        total: {
          description: 'Exact number of products matching the filter, across all pages.',
          type: 'number',
        },
        limit: {
          type: 'number',
        },
        offset: {
          type: 'number',
        },
      },
      required: ['products', 'total', 'limit', 'offset'],
    },
    ProviderCallbackUrls: {
      description:
        "The URLs a provider must be given (Twilio's number configuration, the webhook's documentation, the relay's event\nwebhook), built from PUBLIC_URL. Shown on Admin Settings so an admin can paste them.",
      type: 'object',
      properties: {
        webhookStatus: {
          type: 'string',
        },
        webhookInbound: {
          type: 'string',
        },
        twilioSmsStatus: {
          type: 'string',
        },
        twilioSmsInbound: {
          type: 'string',
        },
        twilioVoiceStatus: {
          type: 'string',
        },
        twilioVoiceGather: {
          type: 'string',
        },
        emailEvents: {
          type: 'string',
        },
      },
      required: ['webhookStatus', 'webhookInbound', 'twilioSmsStatus', 'twilioSmsInbound', 'twilioVoiceStatus', 'twilioVoiceGather', 'emailEvents'],
    },
    ProviderReply: {
      description: "The generic webhook's inbound endpoint answers the words to send back to the number (the gateway sends them).",
      type: 'object',
      properties: {
        reply: {
          type: 'string',
        },
      },
      required: ['reply'],
    },
    PublicIncident: {
      description: 'What the public safety map gets: verified reports, no reporter, no photo.',
      type: 'object',
      properties: {
        id: {
          type: 'string',
        },
        type: {
          type: 'string',
          enum: ['crime', 'traffic-hazard', 'accident', 'wrong-way-driver', 'other'],
        },
        description: {
          type: 'string',
        },
        locationName: {
          anyOf: [
            {
              type: 'null',
            },
            {
              type: 'string',
            },
          ],
        },
        lat: {
          type: 'number',
        },
        lng: {
          type: 'number',
        },
        createdAt: {
          type: 'string',
        },
      },
      required: ['id', 'type', 'description', 'locationName', 'lat', 'lng', 'createdAt'],
    },
    QuietHours: {
      type: 'object',
      properties: {
        enabled: {
          type: 'boolean',
        },
        start: {
          type: 'string',
        },
        end: {
          type: 'string',
        },
        timeZone: {
          description: 'IANA time zone the times are in, e.g. America/Phoenix.',
          type: 'string',
        },
      },
      required: ['enabled', 'start', 'end', 'timeZone'],
    },
    ReachCell: {
      description: 'One cell of the map: a lat/lng square with its people counted by state (never fewer than REACH_MIN_CELL_PEOPLE).',
      type: 'object',
      properties: {
        id: {
          description: 'Stable while the grid is: `<sizeDeg>:<row>:<column>`.',
          type: 'string',
        },
        south: {
          type: 'number',
        },
        west: {
          type: 'number',
        },
        north: {
          type: 'number',
        },
        east: {
          type: 'number',
        },
        sizeDeg: {
          type: 'number',
        },
        people: {
          description: 'Everyone the cell counts (the sum of `counts`).',
          type: 'number',
        },
        counts: {
          $ref: '#/components/schemas/ReachCounts',
        },
      },
      required: ['id', 'south', 'west', 'north', 'east', 'sizeDeg', 'people', 'counts'],
    },
    ReachCounts: {
      type: 'object',
      properties: {
        pending: {
          type: 'number',
        },
        failed: {
          type: 'number',
        },
        needs_help: {
          type: 'number',
        },
        reached: {
          type: 'number',
        },
      },
      required: ['pending', 'failed', 'needs_help', 'reached'],
    },
    ReachHelpRequest: {
      description: 'A help request as the reach map shows it: where its sender said they were (null when they shared no location).',
      type: 'object',
      properties: {
        id: {
          type: 'string',
        },
        status: {
          type: 'string',
          enum: ['open', 'resolved'],
        },
        createdAt: {
          type: 'string',
        },
        message: {
          description: "What they wrote; '' when nothing.",
          type: 'string',
        },
        lat: {
          anyOf: [
            {
              type: 'null',
            },
            {
              type: 'number',
            },
          ],
        },
        lng: {
          anyOf: [
            {
              type: 'null',
            },
            {
              type: 'number',
            },
          ],
        },
      },
      required: ['id', 'status', 'createdAt', 'message', 'lat', 'lng'],
    },
    ReceiptsApplied: {
      description: 'What a receipts endpoint answers: how many deliveries the receipts changed (0 for unknown or settled ones).',
      type: 'object',
      properties: {
        applied: {
          type: 'number',
        },
      },
      required: ['applied'],
    },
    ReporterHistory: {
      description: "How a reporter's reports fared: counts of their OTHER reports (the one being moderated is not counted).",
      type: 'object',
      properties: {
        verified: {
          description: 'Verified, or verified and since resolved (auto-approved ones included).',
          type: 'number',
        },
        rejected: {
          type: 'number',
        },
        pending: {
          description: 'Still waiting for moderation.',
          type: 'number',
        },
      },
      required: ['verified', 'rejected', 'pending'],
    },
    StoreStats: {
      type: 'object',
      properties: {
        totalProducts: {
          type: 'number',
        },
        inStockProducts: {
          type: 'number',
        },
        featuredProducts: {
          type: 'number',
        },
        categories: {
          description: 'Number of distinct categories that have at least one product.',
          type: 'number',
        },
        byCategory: {
          type: 'array',
          items: {
            type: 'object',
            properties: {
              category: {
                type: 'string',
                enum: ['Emergency Kits', 'Safety Electronics', 'Safety Gear', 'Emergency Electronics', 'Medical Supplies', 'Traffic Control'],
              },
              count: {
                type: 'number',
              },
            },
            required: ['category', 'count'],
          },
        },
      },
      required: ['totalProducts', 'inStockProducts', 'featuredProducts', 'categories', 'byCategory'],
    },
    TestAlertResult: {
      description: 'A test alert sent to the admin who asked for it, on the channels that could carry it.',
      type: 'object',
      properties: {
        ok: {
          type: 'boolean',
        },
        channels: {
          type: 'array',
          items: {
            type: 'string',
            enum: ['push', 'sms', 'email', 'voice'],
          },
        },
        alert: {
          $ref: '#/components/schemas/AdminAlert',
        },
      },
      required: ['ok', 'channels', 'alert'],
    },
    TestGroup: {
      description: 'GET /api/alerts/admin/test-group: the staff test group, the audience of the recurring test alert.',
      type: 'object',
      properties: {
        members: {
          type: 'array',
          items: {
            $ref: '#/components/schemas/TestGroupMember',
          },
        },
      },
      required: ['members'],
    },
    TestGroupMember: {
      description: 'A staff member who opted in to the recurring test alert.',
      type: 'object',
      properties: {
        userId: {
          type: 'string',
        },
        email: {
          anyOf: [
            {
              type: 'null',
            },
            {
              type: 'string',
            },
          ],
        },
        joinedAt: {
          type: 'string',
        },
        reachableBy: {
          description: "The schedule's channels their alert preferences and devices reach now (push: a browser subscribed).",
          type: 'array',
          items: {
            type: 'string',
            enum: ['push', 'sms', 'email', 'voice'],
          },
        },
      },
      required: ['userId', 'email', 'joinedAt', 'reachableBy'],
    },
    TestGroupMembership: {
      description: 'GET/PUT /api/alerts/admin/test-group/me: whether the signed-in staff member receives the recurring test alert.',
      type: 'object',
      properties: {
        member: {
          type: 'boolean',
        },
        joinedAt: {
          anyOf: [
            {
              type: 'null',
            },
            {
              type: 'string',
            },
          ],
        },
      },
      required: ['member', 'joinedAt'],
    },
    TestRun: {
      description: 'The last time the schedule came due: the alert it sent, or why none went out.',
      type: 'object',
      properties: {
        at: {
          type: 'string',
        },
        alertId: {
          description: 'null when nothing went out (see skipped).',
          anyOf: [
            {
              type: 'null',
            },
            {
              type: 'string',
            },
          ],
        },
        recipients: {
          description: 'The staff it was addressed to.',
          type: 'number',
        },
        skipped: {
          description: 'no_members: nobody was in the test group; no_channels: every chosen channel was turned off in the settings.',
          anyOf: [
            {
              type: 'string',
              enum: ['no_members', 'no_channels'],
            },
            {
              type: 'null',
            },
          ],
        },
      },
      required: ['at', 'alertId', 'recipients', 'skipped'],
    },
    TestSchedule: {
      description: 'GET/PUT /api/alerts/admin/settings/test-schedule.',
      type: 'object',
      properties: {
        frequency: {
          type: 'string',
          enum: ['daily', 'weekly', 'off'],
        },
        weekday: {
          description: '0 (Sunday) to 6 (Saturday), read when weekly.',
          type: 'number',
        },
        time: {
          description: 'Local time of day, HH:MM on a 24-hour clock, in timeZone.',
          type: 'string',
        },
        timeZone: {
          description: 'The IANA time zone the day and time are read in (e.g. America/New_York): the same local time across DST changes.',
          type: 'string',
        },
        channels: {
          description: 'The channels it tests; at each run those turned off in the settings meanwhile are left out.',
          type: 'array',
          items: {
            type: 'string',
            enum: ['push', 'sms', 'email', 'voice'],
          },
        },
        nextRunAt: {
          description: 'When it next goes out; null while off.',
          anyOf: [
            {
              type: 'null',
            },
            {
              type: 'string',
            },
          ],
        },
        lastRun: {
          anyOf: [
            {
              type: 'null',
            },
            {
              $ref: '#/components/schemas/TestRun',
            },
          ],
        },
        updatedAt: {
          anyOf: [
            {
              type: 'null',
            },
            {
              type: 'string',
            },
          ],
        },
        updatedBy: {
          anyOf: [
            {
              type: 'null',
            },
            {
              type: 'string',
            },
          ],
        },
      },
      required: ['frequency', 'weekday', 'time', 'timeZone', 'channels', 'nextRunAt', 'lastRun', 'updatedAt', 'updatedBy'],
    },
    TotpEnrollment: {
      type: 'object',
      properties: {
        id: {
          type: 'string',
        },
        type: {
          type: 'string',
        },
        friendly_name: {
          type: 'string',
        },
        totp: {
          type: 'object',
          properties: {
            qr_code: {
              type: 'string',
            },
            secret: {
              type: 'string',
            },
            uri: {
              type: 'string',
            },
          },
          required: ['qr_code', 'secret', 'uri'],
        },
      },
      required: ['id', 'type', 'friendly_name', 'totp'],
    },
    TrafficEvent: {
      description: 'An active traffic event with coordinates (GET /api/traffic/events/active).',
      type: 'object',
      properties: {
        id: {
          type: 'string',
        },
        type: {
          type: 'string',
        },
        category: {
          type: 'string',
          enum: ['incident', 'weather', 'other', 'closure', 'roadwork', 'special_event'],
        },
        severity: {
          $ref: '#/components/schemas/EventSeverity',
        },
        lat: {
          type: 'number',
        },
        lng: {
          type: 'number',
        },
        description: {
          type: 'string',
        },
        roadway: {
          anyOf: [
            {
              type: 'null',
            },
            {
              type: 'string',
            },
          ],
        },
        direction: {
          anyOf: [
            {
              type: 'null',
            },
            {
              type: 'string',
            },
          ],
        },
        fullClosure: {
          type: 'boolean',
        },
        startDate: {
          anyOf: [
            {
              type: 'null',
            },
            {
              type: 'string',
            },
          ],
        },
        endDate: {
          anyOf: [
            {
              type: 'null',
            },
            {
              type: 'string',
            },
          ],
        },
      },
      required: ['id', 'type', 'category', 'severity', 'lat', 'lng', 'description', 'roadway', 'direction', 'fullClosure', 'startDate', 'endDate'],
    },
    TwilioSettingsView: {
      description: 'The Twilio-compatible account as admins see it: the auth token only masked.',
      type: 'object',
      properties: {
        accountSid: {
          type: 'string',
        },
        authTokenSet: {
          type: 'boolean',
        },
        authTokenMasked: {
          type: 'string',
        },
        fromNumber: {
          description: "The E.164 number (or messaging service's number) messages and calls come from.",
          type: 'string',
        },
      },
      required: ['accountSid', 'authTokenSet', 'authTokenMasked', 'fromNumber'],
    },
    UnreadCount: {
      description: 'GET /api/alerts/me/alerts/unread-count: alerts in effect delivered to me that I have not read (ended ones never count).',
      type: 'object',
      properties: {
        count: {
          type: 'number',
        },
      },
      required: ['count'],
    },
    UploadResult: {
      type: 'object',
      properties: {
        path: {
          description: 'Storage key to send back when creating the incident or post.',
          type: 'string',
        },
        url: {
          description: 'Where the re-encoded image is served (same origin).',
          type: 'string',
        },
        contentType: {
          type: 'string',
        },
        size: {
          type: 'number',
        },
      },
      required: ['path', 'url', 'contentType', 'size'],
    },
    UserAlert: {
      description: "`title` and `message` are in the user's language (their preference) when the alert has it, else English.",
      type: 'object',
      properties: {
        language: {
          description: 'The language title and message are in.',
          type: 'string',
          enum: ['en', 'es', 'fr', 'zh', 'vi', 'ko'],
        },
        read: {
          type: 'boolean',
        },
        readAt: {
          anyOf: [
            {
              type: 'null',
            },
            {
              type: 'string',
            },
          ],
        },
        id: {
          type: 'string',
        },
        title: {
          type: 'string',
        },
        message: {
          type: 'string',
        },
        severity: {
          type: 'string',
          enum: ['low', 'medium', 'high', 'critical'],
        },
        priority: {
          description: 'The admin-screen view of severity.',
          type: 'string',
          enum: ['low', 'medium', 'high'],
        },
        category: {
          type: 'string',
          enum: ['weather', 'traffic', 'security', 'public_safety', 'health'],
        },
        type: {
          type: 'string',
        },
        status: {
          type: 'string',
          enum: ['cancelled', 'draft', 'scheduled', 'pending_approval', 'active', 'expired', 'all_clear'],
        },
        locationName: {
          anyOf: [
            {
              type: 'null',
            },
            {
              type: 'string',
            },
          ],
        },
        lat: {
          anyOf: [
            {
              type: 'null',
            },
            {
              type: 'number',
            },
          ],
        },
        lng: {
          anyOf: [
            {
              type: 'null',
            },
            {
              type: 'number',
            },
          ],
        },
        radiusKm: {
          description: "A circle's radius; null for an alert without an area and for a polygon alert.",
          anyOf: [
            {
              type: 'null',
            },
            {
              type: 'number',
            },
          ],
        },
        area: {
          description:
            'Where the alert applies: a circle (lat, lng, radiusKm above), a drawn polygon, or null (everyone). For a polygon,\nlat/lng above are its centroid (map centring, sorting), never a test of who it concerns.',
          anyOf: [
            {
              type: 'null',
            },
            {
              type: 'object',
              properties: {
                type: {
                  type: 'string',
                  const: 'circle',
                },
                lat: {
                  type: 'number',
                },
                lng: {
                  type: 'number',
                },
                radiusKm: {
                  type: 'number',
                },
                description: {
                  type: 'string',
                },
              },
              required: ['type', 'lat', 'lng', 'radiusKm'],
            },
            {
              type: 'object',
              properties: {
                type: {
                  type: 'string',
                  const: 'polygon',
                },
                points: {
                  type: 'array',
                  items: {
                    type: 'array',
                    items: {
                      type: 'number',
                    },
                  },
                },
                description: {
                  type: 'string',
                },
              },
              required: ['type', 'points'],
            },
            {
              type: 'object',
              properties: {
                type: {
                  type: 'string',
                  const: 'multi',
                },
                parts: {
                  type: 'array',
                  items: {
                    $ref: '#/components/schemas/AlertAreaPart',
                  },
                },
              },
              required: ['type', 'parts'],
            },
          ],
        },
        channels: {
          type: 'array',
          items: {
            type: 'string',
            enum: ['push', 'sms', 'email', 'voice'],
          },
        },
        createdAt: {
          type: 'string',
        },
        expiresAt: {
          anyOf: [
            {
              type: 'null',
            },
            {
              type: 'string',
            },
          ],
        },
        version: {
          description: '1 as sent; each update adds one (the all-clear too).',
          type: 'number',
        },
        allClear: {
          description:
            "When the all-clear was given, with its message; null otherwise. `translations`: its message in the alert's other\nlanguages (issue #38), each reader getting theirs (AllClearTranslations); absent or {} when it was given in English only.",
          anyOf: [
            {
              type: 'null',
            },
            {
              type: 'object',
              properties: {
                at: {
                  type: 'string',
                },
                message: {
                  anyOf: [
                    {
                      type: 'null',
                    },
                    {
                      type: 'string',
                    },
                  ],
                },
                translations: {
                  type: 'object',
                  properties: {
                    es: {
                      type: 'object',
                      properties: {
                        message: {
                          type: 'string',
                        },
                      },
                      required: ['message'],
                    },
                    fr: {
                      type: 'object',
                      properties: {
                        message: {
                          type: 'string',
                        },
                      },
                      required: ['message'],
                    },
                    zh: {
                      type: 'object',
                      properties: {
                        message: {
                          type: 'string',
                        },
                      },
                      required: ['message'],
                    },
                    vi: {
                      type: 'object',
                      properties: {
                        message: {
                          type: 'string',
                        },
                      },
                      required: ['message'],
                    },
                    ko: {
                      type: 'object',
                      properties: {
                        message: {
                          type: 'string',
                        },
                      },
                      required: ['message'],
                    },
                  },
                },
              },
              required: ['at', 'message'],
            },
          ],
        },
        lastChange: {
          description:
            "What the latest version changed for its readers (issue #40): an update's fields (and the severity it had\nbefore), or the all-clear; null (or absent) for an alert that never changed. The service always fills it.",
          anyOf: [
            {
              type: 'null',
            },
            {
              $ref: '#/components/schemas/AlertChange',
            },
          ],
        },
      },
      required: [
        'language',
        'read',
        'readAt',
        'id',
        'title',
        'message',
        'severity',
        'priority',
        'category',
        'type',
        'status',
        'locationName',
        'lat',
        'lng',
        'radiusKm',
        'area',
        'channels',
        'createdAt',
        'expiresAt',
        'version',
        'allClear',
      ],
    },
    UserPoints: {
      type: 'object',
      properties: {
        points: {
          type: 'number',
        },
        level: {
          type: 'number',
        },
        levelName: {
          description: "'New Member' when the user has no points record yet.",
          type: 'string',
        },
        nextLevelAt: {
          description: 'Points at which the next level starts; null at the top level.',
          anyOf: [
            {
              type: 'null',
            },
            {
              type: 'number',
            },
          ],
        },
        progress: {
          description: '0-100 within the current level (100 at the top level).',
          type: 'number',
        },
        hasRecord: {
          description: 'False until the user earns (or loses) points for the first time.',
          type: 'boolean',
        },
      },
      required: ['points', 'level', 'levelName', 'nextLevelAt', 'progress', 'hasRecord'],
    },
  },
};

import { COMMUNITY_MESSAGES } from './community';
import { INCIDENT_LIMITS, INCIDENT_MESSAGES, UPLOAD_BUCKETS, UploadBucket } from './incidents';

/**
 * How large a request body may be, written once for the services that refuse a larger one and for the edge, which
 * refuses it first (a service answering 413 mid-upload made the proxy report it unreachable).
 */
export const BODY_LIMITS = {
  /** JSON bodies of every service (express's default, set explicitly by the shared bootstrap). */
  jsonBytes: 100 * 1024,
  /** A multipart upload: one image of the maximum size plus room for the multipart envelope around it. */
  uploadBytes: INCIDENT_LIMITS.photoMaxBytes + 64 * 1024,
} as const;

/** The spec's size message differs by what is uploaded. */
export const UPLOAD_TOO_LARGE_MESSAGE: Record<UploadBucket, string> = {
  'incident-photos': INCIDENT_MESSAGES.photoTooLarge,
  'community-post-photos': COMMUNITY_MESSAGES.imageTooLarge,
};

export const isUploadBucket = (value: string): value is UploadBucket => (UPLOAD_BUCKETS as readonly string[]).includes(value);

import { randomBytes } from 'node:crypto';
import { UPLOAD_BUCKETS, UploadBucket } from '@beacon/contracts';

export const IMAGE_TYPES = {
  jpg: 'image/jpeg',
  png: 'image/png',
  webp: 'image/webp',
  gif: 'image/gif',
} as const;
export type ImageExtension = keyof typeof IMAGE_TYPES;

const UUID = '[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}';
/** The random part is optional only so that keys made before it existed stay readable. */
const KEY = new RegExp(`^(${UPLOAD_BUCKETS.join('|')})/(${UUID})/(\\d{13,16}(?:-[0-9a-f]{32})?)\\.(jpg|png|webp|gif)$`);

export interface UploadKey {
  bucket: UploadBucket;
  ownerId: string;
  fileName: string;
  ext: ImageExtension;
}

/**
 * `{bucket}/{userId}/{timestamp}-{32 hex}.{ext}`: the only shape a stored key may have (no traversal, no
 * user-chosen names). The 128 random bits make a key unguessable from the uploader's id and the time.
 */
export function uploadKey(bucket: UploadBucket, ownerId: string, timestamp: number, ext: ImageExtension, random = randomBytes(16).toString('hex')): string {
  return `${bucket}/${ownerId}/${timestamp}-${random}.${ext}`;
}

export function parseUploadKey(key: string): UploadKey | null {
  const m = KEY.exec(key);
  if (!m) return null;
  return { bucket: m[1] as UploadBucket, ownerId: m[2], fileName: `${m[3]}.${m[4]}`, ext: m[4] as ImageExtension };
}

/** The same-origin URL the incidents service serves the object at. */
export const uploadUrl = (key: string) => `/api/incidents/uploads/${key}`;

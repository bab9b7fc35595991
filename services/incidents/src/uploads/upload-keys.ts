import { UPLOAD_BUCKETS, UploadBucket } from '@beacon/contracts';

export const IMAGE_TYPES = {
  jpg: 'image/jpeg',
  png: 'image/png',
  webp: 'image/webp',
  gif: 'image/gif',
} as const;
export type ImageExtension = keyof typeof IMAGE_TYPES;

const UUID = '[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}';
const KEY = new RegExp(`^(${UPLOAD_BUCKETS.join('|')})/(${UUID})/(\\d{13,16})\\.(jpg|png|webp|gif)$`);

export interface UploadKey {
  bucket: UploadBucket;
  ownerId: string;
  fileName: string;
  ext: ImageExtension;
}

/** `{bucket}/{userId}/{timestamp}.{ext}`: the only shape a stored key may have (no traversal, no user-chosen names). */
export function uploadKey(bucket: UploadBucket, ownerId: string, timestamp: number, ext: ImageExtension): string {
  return `${bucket}/${ownerId}/${timestamp}.${ext}`;
}

export function parseUploadKey(key: string): UploadKey | null {
  const m = KEY.exec(key);
  if (!m) return null;
  return { bucket: m[1] as UploadBucket, ownerId: m[2], fileName: `${m[3]}.${m[4]}`, ext: m[4] as ImageExtension };
}

export const isUploadBucket = (value: string): value is UploadBucket => (UPLOAD_BUCKETS as readonly string[]).includes(value);

/** The same-origin URL the incidents service serves the object at. */
export const uploadUrl = (key: string) => `/api/incidents/uploads/${key}`;

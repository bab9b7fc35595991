import { Injectable } from '@nestjs/common';
import { AuthUser } from '@beacon/auth';
import { AppError, badRequest } from '@beacon/common';
import { INCIDENT_MESSAGES, UploadBucket, UploadResult } from '@beacon/contracts';
import { ImageProcessor, InvalidImageError } from './image-processor';
import { ObjectStorage, StoredObject } from './object-storage';
import { PhotoUrls } from './photo-urls';
import { PhotoVisibilityRepository } from './photo-visibility.repository';
import { IMAGE_TYPES, parseUploadKey, UploadKey, uploadKey } from './upload-keys';

/** Who asks for a photo: the bearer of a token, of a signed URL, or nobody in particular. */
export interface PhotoRequest {
  user?: AuthUser;
  expires?: unknown;
  /** The signed URL's HMAC; named `token` so the shared log redaction hides it. */
  token?: unknown;
}

export interface ServedPhoto extends StoredObject {
  contentType: string;
  cacheControl: string;
}

/**
 * Short for published photos: a verified report can still be rejected, and shared caches should stop serving its
 * photo soon after.
 */
const PUBLIC_CACHE = 'public, max-age=300';

@Injectable()
export class UploadsService {
  constructor(
    private readonly storage: ObjectStorage,
    private readonly images: ImageProcessor,
    private readonly urls: PhotoUrls,
    private readonly visibility: PhotoVisibilityRepository,
  ) {}

  /** Checks the bytes are an image, strips its metadata and stores it under a new server-chosen key. */
  async store(bucket: UploadBucket, userId: string, file: Buffer): Promise<UploadResult> {
    let image;
    try {
      image = await this.images.normalize(file);
    } catch (e) {
      if (e instanceof InvalidImageError) throw new AppError(415, 'invalid_image', INCIDENT_MESSAGES.invalidImage);
      throw e;
    }
    // a fresh random part each attempt; a clash of 128 random bits is not expected, never overwriting is still checked
    for (let attempt = 0; attempt < 3; attempt++) {
      const key = uploadKey(bucket, userId, Date.now(), image.ext);
      if (await this.storage.putNew(key, image.buffer, image.contentType)) {
        // not attached to anything yet, so not public: the uploader gets a signed URL for a preview
        return { path: key, url: this.urls.signed(key), contentType: image.contentType, size: image.buffer.length };
      }
    }
    throw new AppError(503, 'upload_busy', 'Too many uploads at once. Please try again.');
  }

  /**
   * A path a client sends back when creating an incident or post must be one of ITS OWN uploads, in the
   * right bucket, that exists: nobody can attach someone else's photo or an arbitrary URL.
   */
  async assertOwnUpload(path: string, bucket: UploadBucket, userId: string): Promise<void> {
    const key = parseUploadKey(path);
    if (!key || key.bucket !== bucket || key.ownerId !== userId || !(await this.storage.exists(path))) {
      throw badRequest('The uploaded image was not found. Please upload it again.', 'upload_not_found');
    }
  }

  /**
   * The object to serve, with its content type decided by the server-generated extension, or null when it does
   * not exist OR the caller may not see it: both are the same 404, so a photo's existence does not leak.
   */
  async open(path: string, request: PhotoRequest = {}): Promise<ServedPhoto | null> {
    const key = parseUploadKey(path);
    if (!key) return null;
    const cacheControl = await this.access(path, key, request);
    if (!cacheControl) return null;
    const object = await this.storage.get(path);
    return object && { ...object, contentType: IMAGE_TYPES[key.ext], cacheControl };
  }

  /** The Cache-Control to serve with, or null when the caller may not see the photo. */
  private async access(path: string, key: UploadKey, { user, expires, token }: PhotoRequest): Promise<string | null> {
    const left = this.urls.verify(path, expires, token);
    if (left !== null) return `private, max-age=${left}`;
    // the uploader is the reporter or poster: attaching someone else's upload is refused (assertOwnUpload)
    if (user && (user.role === 'admin' || user.id === key.ownerId)) return 'private, no-store';
    return (await this.visibility.isPublished(key.bucket, path)) ? PUBLIC_CACHE : null;
  }
}

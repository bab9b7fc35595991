import { Injectable } from '@nestjs/common';
import { AppError, badRequest } from '@beacon/common';
import { COMMUNITY_MESSAGES, INCIDENT_MESSAGES, UploadBucket, UploadResult } from '@beacon/contracts';
import { ImageProcessor, InvalidImageError } from './image-processor';
import { ObjectStorage, StoredObject } from './object-storage';
import { IMAGE_TYPES, parseUploadKey, uploadKey, uploadUrl } from './upload-keys';

/** The spec's size message differs by what is uploaded. */
export const TOO_LARGE_MESSAGE: Record<UploadBucket, string> = {
  'incident-photos': INCIDENT_MESSAGES.photoTooLarge,
  'community-post-photos': COMMUNITY_MESSAGES.imageTooLarge,
};

@Injectable()
export class UploadsService {
  constructor(private readonly storage: ObjectStorage, private readonly images: ImageProcessor) {}

  /** Checks the bytes are an image, strips its metadata and stores it under a new server-chosen key. */
  async store(bucket: UploadBucket, userId: string, file: Buffer): Promise<UploadResult> {
    let image;
    try {
      image = await this.images.normalize(file);
    } catch (e) {
      if (e instanceof InvalidImageError) throw new AppError(415, 'invalid_image', INCIDENT_MESSAGES.invalidImage);
      throw e;
    }
    // {userId}/{timestamp}.{ext}; two uploads in the same millisecond take the next free one
    let timestamp = Date.now();
    for (let attempt = 0; attempt < 20; attempt++, timestamp++) {
      const key = uploadKey(bucket, userId, timestamp, image.ext);
      if (await this.storage.putNew(key, image.buffer, image.contentType)) {
        return { path: key, url: uploadUrl(key), contentType: image.contentType, size: image.buffer.length };
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

  /** The object to serve, with its content type decided by the server-generated extension. */
  async open(path: string): Promise<(StoredObject & { contentType: string }) | null> {
    const key = parseUploadKey(path);
    if (!key) return null;
    const object = await this.storage.get(path);
    return object && { ...object, contentType: IMAGE_TYPES[key.ext] };
  }
}

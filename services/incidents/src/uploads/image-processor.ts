import { Injectable } from '@nestjs/common';
import sharp from 'sharp';
import { ImageExtension, IMAGE_TYPES } from './upload-keys';

/** Decoded format (as sharp names it) to what we store. Anything else (SVG, TIFF, HEIF, PDF...) is refused. */
const ACCEPTED: Record<string, ImageExtension> = { jpeg: 'jpg', png: 'png', webp: 'webp', gif: 'gif' };
/** Decompression-bomb guard: a 5 MB file may claim billions of pixels. */
const MAX_INPUT_PIXELS = 50_000_000;
/** Longest side after re-encoding; phone photos are larger than any screen shows them. */
const MAX_SIDE = 2560;

export class InvalidImageError extends Error {}

export interface NormalizedImage {
  buffer: Buffer;
  ext: ImageExtension;
  contentType: string;
}

/**
 * Trusts the bytes, never the name or the declared type: the file must decode as JPEG, PNG, WebP or GIF.
 * It is then re-encoded, which drops EXIF (GPS position, camera serial) and anything smuggled after the
 * image data, after baking the EXIF orientation into the pixels.
 */
@Injectable()
export class ImageProcessor {
  async normalize(input: Buffer): Promise<NormalizedImage> {
    let meta: sharp.Metadata;
    try {
      meta = await sharp(input, { failOn: 'error', limitInputPixels: MAX_INPUT_PIXELS }).metadata();
    } catch {
      throw new InvalidImageError('not a decodable image');
    }
    const ext = meta.format ? ACCEPTED[meta.format] : undefined;
    if (!ext) throw new InvalidImageError(`unsupported format ${meta.format ?? 'unknown'}`);
    const animated = (meta.pages ?? 1) > 1;
    try {
      let image = sharp(input, { failOn: 'error', limitInputPixels: MAX_INPUT_PIXELS, animated });
      if (!animated) image = image.rotate();
      image = image.resize({ width: MAX_SIDE, height: MAX_SIDE, fit: 'inside', withoutEnlargement: true });
      // sharp writes no metadata unless asked (keepMetadata/withMetadata): the output carries pixels only
      const buffer = await (
        ext === 'jpg' ? image.jpeg({ quality: 85 }) : ext === 'png' ? image.png() : ext === 'webp' ? image.webp({ quality: 85 }) : image.gif()
      ).toBuffer();
      return { buffer, ext, contentType: IMAGE_TYPES[ext] };
    } catch {
      throw new InvalidImageError('image could not be re-encoded');
    }
  }
}

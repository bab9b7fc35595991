import { CallHandler, ExecutionContext, Injectable, NestInterceptor } from '@nestjs/common';
import type { Request, Response } from 'express';
import multer from 'multer';
import { AppError, notFound } from '@beacon/common';
import { BODY_LIMITS, INCIDENT_LIMITS, isUploadBucket, UPLOAD_TOO_LARGE_MESSAGE } from '@beacon/contracts';

const parseSingleImage = multer({
  storage: multer.memoryStorage(),
  // busboy stops at fileSize + 1 byte: a larger file is never held in memory whole
  limits: { fileSize: INCIDENT_LIMITS.photoMaxBytes, files: 1, fields: 4, parts: 5, fieldSize: 1024, headerPairs: 50 },
}).single('file');

/**
 * Parses `multipart/form-data` with one image in the field `file`, refusing oversize bodies before reading
 * them (declared length) or while reading them (multer's limit), with the spec's messages.
 */
@Injectable()
export class ImageUploadInterceptor implements NestInterceptor {
  async intercept(ctx: ExecutionContext, next: CallHandler) {
    const req = ctx.switchToHttp().getRequest<Request>();
    const res = ctx.switchToHttp().getResponse<Response>();
    const bucket = String(req.params.bucket);
    if (!isUploadBucket(bucket)) throw notFound('Upload bucket', 'bucket_not_found');
    const tooLarge = new AppError(413, 'file_too_large', UPLOAD_TOO_LARGE_MESSAGE[bucket]);

    const declared = Number(req.headers['content-length']);
    if (Number.isFinite(declared) && declared > BODY_LIMITS.uploadBytes) throw tooLarge;
    if (!req.is('multipart/form-data')) throw new AppError(415, 'multipart_required', 'Send the image as multipart/form-data in the field "file"');

    await new Promise<void>((resolve, reject) => {
      parseSingleImage(req, res, (err: unknown) => {
        if (!err) return resolve();
        if (err instanceof multer.MulterError) {
          if (err.code === 'LIMIT_FILE_SIZE') return reject(tooLarge);
          if (err.code === 'LIMIT_UNEXPECTED_FILE') return reject(new AppError(400, 'unexpected_field', 'Send exactly one image, in the field "file"'));
          return reject(new AppError(400, 'invalid_upload', `The upload was refused: ${err.message}`));
        }
        reject(new AppError(400, 'invalid_upload', 'The upload could not be read'));
      });
    });
    return next.handle();
  }
}

import { Controller, Get, Param, Post, Res, UploadedFile, UseInterceptors } from '@nestjs/common';
import type { Response } from 'express';
import { AuthUser, CurrentUser, OptionalAuth, Public } from '@beacon/auth';
import { badRequest, notFound } from '@beacon/common';
import { INCIDENT_MESSAGES, UploadBucket } from '@beacon/contracts';
import { RequireSignIn } from '../common/require-sign-in';
import { ImageUploadInterceptor } from './image-upload.interceptor';
import { UploadsService } from './uploads.service';

@Controller('uploads')
export class UploadsController {
  constructor(private readonly uploads: UploadsService) {}

  /** multipart/form-data, field `file`. The interceptor checks the bucket, the caller and the size. */
  @Post(':bucket')
  @OptionalAuth()
  @RequireSignIn(INCIDENT_MESSAGES.notAuthenticated)
  @UseInterceptors(ImageUploadInterceptor)
  upload(@Param('bucket') bucket: UploadBucket, @UploadedFile() file: Express.Multer.File | undefined, @CurrentUser() user: AuthUser) {
    if (!file?.buffer?.length) throw badRequest('Please choose an image to upload', 'file_required');
    return this.uploads.store(bucket, user.id, file.buffer);
  }

  /**
   * Public like the spec's storage URLs (an <img> cannot send a token); the key is server-generated.
   * nosniff plus a fixed image type: a browser never renders these bytes as anything but an image.
   */
  @Get(':bucket/:owner/:file')
  @Public()
  async serve(@Param('bucket') bucket: string, @Param('owner') owner: string, @Param('file') file: string, @Res() res: Response) {
    const object = await this.uploads.open(`${bucket}/${owner}/${file}`);
    if (!object) throw notFound('Image', 'image_not_found');
    res.setHeader('Content-Type', object.contentType);
    res.setHeader('X-Content-Type-Options', 'nosniff');
    res.setHeader('Content-Security-Policy', "default-src 'none'; sandbox");
    res.setHeader('Cache-Control', 'public, max-age=3600');
    if (object.size !== undefined) res.setHeader('Content-Length', String(object.size));
    object.body.on('error', () => res.destroy());
    object.body.pipe(res);
  }
}

import { Controller, Get, Param, Post, Query, Res, UploadedFile, UseInterceptors } from '@nestjs/common';
import type { Response } from 'express';
import { AuthUser, CurrentUser, OptionalAuth } from '@beacon/auth';
import { ApiErrors, ApiFile, ApiOperation, ApiReturns, badRequest, notFound } from '@beacon/common';
import { INCIDENT_MESSAGES, UploadBucket } from '@beacon/contracts';
import { RateLimited } from '../common/rate-limits';
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
  // counted before the body is read: the global interceptor runs before the route's multipart parser
  @RateLimited('uploads')
  @UseInterceptors(ImageUploadInterceptor)
  @ApiReturns('UploadResult')
  @ApiOperation(
    'uploads.create',
    'Upload an image',
    'Stores one image (multipart/form-data, field file) in the bucket the path names, for a report or a post to attach; answers where it is kept. The image is checked before it is kept.',
  )
  @ApiErrors({
    400: ['file_required', 'invalid_upload', 'unexpected_field'],
    404: ['bucket_not_found'],
    413: ['file_too_large'],
    415: ['invalid_image', 'multipart_required'],
    503: ['upload_busy'],
  })
  upload(@Param('bucket') bucket: UploadBucket, @UploadedFile() file: Express.Multer.File | undefined, @CurrentUser() user: AuthUser) {
    if (!file?.buffer?.length) throw badRequest('Please choose an image to upload', 'file_required');
    return this.uploads.store(bucket, user.id, file.buffer);
  }

  /**
   * Published photos to anyone; others to their uploader and admins, by token or by the signed URL the API gave
   * them (an <img> cannot send a token). nosniff plus a fixed image type: a browser never renders these bytes as
   * anything but an image.
   */
  @Get(':bucket/:owner/:file')
  @OptionalAuth()
  @ApiFile('image/*')
  @ApiOperation(
    'uploads.get',
    'An uploaded image',
    'Published photos to anyone; the others to their uploader and administrators, by token or by the signed URL (expires, token) the API gave them.',
  )
  @ApiErrors({ 404: ['image_not_found'] })
  async serve(
    @Param('bucket') bucket: string,
    @Param('owner') owner: string,
    @Param('file') file: string,
    @Query('expires') expires: unknown,
    @Query('token') token: unknown,
    @CurrentUser() user: AuthUser | undefined,
    @Res() res: Response,
  ) {
    const object = await this.uploads.open(`${bucket}/${owner}/${file}`, { user, expires, token });
    if (!object) throw notFound('Image', 'image_not_found');
    res.setHeader('Content-Type', object.contentType);
    res.setHeader('X-Content-Type-Options', 'nosniff');
    res.setHeader('Content-Security-Policy', "default-src 'none'; sandbox");
    res.setHeader('Cache-Control', object.cacheControl);
    // the answer depends on the token: a shared cache must not hand one person's private photo to another
    res.setHeader('Vary', 'Authorization');
    if (object.size !== undefined) res.setHeader('Content-Length', String(object.size));
    object.body.on('error', () => res.destroy());
    object.body.pipe(res);
  }
}

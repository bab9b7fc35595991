import { Controller, Get, Param, Res } from '@nestjs/common';
import type { Response } from 'express';
import { Public } from '@beacon/auth';
import { ApiErrors, ApiFile, ApiOperation, AppError, notFound } from '@beacon/common';
import { SEED_SOURCE } from '../seed/seed-source';
import { renderSnapshotSvg } from './camera-snapshot';
import { CamerasRepository } from './cameras.repository';

/**
 * Snapshots of the seeded demo cameras, drawn on request (so the app works offline and in tests). Real cameras'
 * images come straight from the 511 source's own URLs and never pass through here.
 */
@Controller('camera-images')
@Public()
export class CameraImagesController {
  constructor(private readonly cameras: CamerasRepository) {}

  @Get(':file')
  @ApiFile('image/svg+xml')
  @ApiOperation(
    'cameraImages.get',
    "A demo camera's snapshot",
    "A snapshot of a seeded demo camera, drawn on request as SVG. Real cameras' images come from the 511 source's own URLs.",
  )
  @ApiErrors({ 404: ['camera_image_not_found'] })
  async snapshot(@Param('file') file: string, @Res() res: Response) {
    const match = /^([A-Za-z0-9_-]{1,100})\.svg$/.exec(file);
    if (!match) throw new AppError(404, 'camera_image_not_found', 'Camera image not found');
    const camera = await this.cameras.findBySourceId(SEED_SOURCE, match[1]);
    if (!camera) throw notFound('Camera image', 'camera_image_not_found');
    res.setHeader('Content-Type', 'image/svg+xml; charset=utf-8');
    res.setHeader('X-Content-Type-Options', 'nosniff');
    // opened on its own in a tab ('View Full'), an SVG is a document: it may not run or load anything
    res.setHeader('Content-Security-Policy', "default-src 'none'; style-src 'unsafe-inline'; sandbox");
    res.setHeader('Cache-Control', 'public, max-age=30');
    res.send(renderSnapshotSvg(camera, new Date(), match[1]));
  }
}

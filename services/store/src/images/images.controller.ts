import { Controller, Get, Header, Param, Res } from '@nestjs/common';
import type { Response } from 'express';
import { Public } from '@beacon/auth';
import { ApiErrors, ApiFile, ApiOperation, notFound } from '@beacon/common';
import { ProductImagesService } from './product-images.service';

/**
 * Serves the seeded catalogue's illustrations (images are <img src>, so they carry no token: public).
 * SVG is served with a CSP that forbids scripts, in case one is ever opened directly.
 */
@Controller('images')
export class ImagesController {
  constructor(private readonly images: ProductImagesService) {}

  @Public()
  @Get(':file')
  @Header('Cache-Control', 'public, max-age=86400')
  @Header('Content-Security-Policy', "default-src 'none'; style-src 'unsafe-inline'")
  @Header('X-Content-Type-Options', 'nosniff')
  @ApiFile('image/svg+xml')
  @ApiOperation('productImages.get', 'A product illustration', 'An illustration of the seeded catalogue, as SVG (public: images carry no token).')
  @ApiErrors({ 404: ['image_not_found'] })
  image(@Param('file') file: string, @Res() res: Response) {
    const svg = this.images.svgFor(file);
    if (!svg) throw notFound('Image', 'image_not_found');
    res.type('image/svg+xml').send(svg);
  }
}

import { Module } from '@nestjs/common';
import { getDataSourceToken } from '@nestjs/typeorm';
import type { DataSource } from 'typeorm';
import { IncidentsEnv } from '../config/env.dto';
import { ImageProcessor } from './image-processor';
import { LocalStorage } from './local-storage';
import { ObjectStorage } from './object-storage';
import { CLOCK, PHOTO_URL_KEY, PhotoUrls } from './photo-urls';
import { PhotoVisibilityRepository } from './photo-visibility.repository';
import { S3Storage } from './s3-storage';
import { UploadsController } from './uploads.controller';
import { UploadsService } from './uploads.service';

export function createObjectStorage(env: IncidentsEnv): ObjectStorage {
  if (env.UPLOADS_DRIVER === 's3') {
    return new S3Storage({
      endpoint: env.UPLOADS_S3_ENDPOINT,
      region: env.UPLOADS_S3_REGION,
      bucket: env.UPLOADS_S3_BUCKET!,
      accessKeyId: env.UPLOADS_S3_ACCESS_KEY_ID!,
      secretAccessKey: env.UPLOADS_S3_SECRET_ACCESS_KEY!,
      forcePathStyle: env.UPLOADS_S3_FORCE_PATH_STYLE,
    });
  }
  return new LocalStorage(env.UPLOADS_DIR);
}

/** INCIDENTS_PHOTO_URL_KEY when set, else the key the migration generated, shared by every replica. */
export async function loadPhotoUrlKey(env: IncidentsEnv, ds: DataSource): Promise<Buffer> {
  if (env.INCIDENTS_PHOTO_URL_KEY) return Buffer.from(env.INCIDENTS_PHOTO_URL_KEY, 'base64');
  const [row] = await ds.query(`SELECT secret FROM incidents.photo_url_key`);
  if (!row) throw new Error('incidents.photo_url_key is empty: run the migrations or set INCIDENTS_PHOTO_URL_KEY');
  return row.secret;
}

@Module({
  controllers: [UploadsController],
  providers: [
    { provide: ObjectStorage, useFactory: createObjectStorage, inject: [IncidentsEnv] },
    { provide: PHOTO_URL_KEY, useFactory: loadPhotoUrlKey, inject: [IncidentsEnv, getDataSourceToken()] },
    { provide: CLOCK, useValue: () => Math.floor(Date.now() / 1000) },
    ImageProcessor,
    PhotoUrls,
    PhotoVisibilityRepository,
    UploadsService,
  ],
  exports: [UploadsService, PhotoUrls],
})
export class UploadsModule {}

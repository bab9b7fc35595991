import { Module } from '@nestjs/common';
import { IncidentsEnv } from '../config/env.dto';
import { ImageProcessor } from './image-processor';
import { LocalStorage } from './local-storage';
import { ObjectStorage } from './object-storage';
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

@Module({
  controllers: [UploadsController],
  providers: [
    { provide: ObjectStorage, useFactory: createObjectStorage, inject: [IncidentsEnv] },
    ImageProcessor,
    UploadsService,
  ],
  exports: [UploadsService],
})
export class UploadsModule {}

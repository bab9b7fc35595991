import { Module } from '@nestjs/common';
import { CameraImagesController } from './camera-images.controller';
import { CamerasController } from './cameras.controller';
import { CamerasRepository } from './cameras.repository';

@Module({
  controllers: [CamerasController, CameraImagesController],
  providers: [CamerasRepository],
})
export class CamerasModule {}

import { Module } from '@nestjs/common';
import { ImagesController } from './images.controller';
import { ProductImagesService } from './product-images.service';

@Module({ controllers: [ImagesController], providers: [ProductImagesService] })
export class ImagesModule {}

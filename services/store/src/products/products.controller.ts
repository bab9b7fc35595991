import { Body, Controller, Delete, Get, HttpCode, Param, Patch, Post, Query } from '@nestjs/common';
import { AuthUser, CurrentUser, Roles } from '@beacon/auth';
import { CreateProductDto, UpdateProductDto } from './dto/product.dto';
import { FeaturedProductsQuery, ListProductsQuery } from './dto/list-products.query';
import { ProductIdPipe } from './product-id.pipe';
import { ProductsService } from './products.service';
import { ApiNoContent, ApiReturns } from '@beacon/common';

/** The catalogue is for signed-in users (the store lives in the dashboard); writes and figures are for admins. */
@Controller()
export class ProductsController {
  constructor(private readonly products: ProductsService) {}

  @Get('products')
  @ApiReturns('ProductPage')
  list(@Query() query: ListProductsQuery) {
    return this.products.list(query);
  }

  @Get('products/featured')
  @ApiReturns('FeaturedProducts')
  featured(@Query() query: FeaturedProductsQuery) {
    return this.products.featured(query);
  }

  @Get('stats')
  @Roles('admin')
  @ApiReturns('StoreStats')
  stats() {
    return this.products.stats();
  }

  @Get('products/:id')
  @ApiReturns('Product')
  get(@Param('id', ProductIdPipe) id: string) {
    return this.products.get(id);
  }

  @Post('products/:id/views')
  @HttpCode(200)
  @ApiReturns('ProductViewRecorded')
  recordView(@Param('id', ProductIdPipe) id: string, @CurrentUser() user: AuthUser) {
    return this.products.recordView(id, user.id);
  }

  @Get('products/:id/analytics')
  @Roles('admin')
  @ApiReturns('ProductAnalytics')
  analytics(@Param('id', ProductIdPipe) id: string) {
    return this.products.analytics(id);
  }

  @Post('products')
  @Roles('admin')
  @ApiReturns('Product')
  create(@Body() body: CreateProductDto) {
    return this.products.create(body);
  }

  @Patch('products/:id')
  @Roles('admin')
  @ApiReturns('Product')
  update(@Param('id', ProductIdPipe) id: string, @Body() body: UpdateProductDto) {
    return this.products.update(id, body);
  }

  @Delete('products/:id')
  @Roles('admin')
  @HttpCode(204)
  @ApiNoContent()
  async delete(@Param('id', ProductIdPipe) id: string) {
    await this.products.delete(id);
  }
}

import { Body, Controller, Delete, Get, HttpCode, Param, Patch, Post, Query } from '@nestjs/common';
import { AuthUser, CurrentUser, Roles } from '@beacon/auth';
import { CreateProductDto, UpdateProductDto } from './dto/product.dto';
import { FeaturedProductsQuery, ListProductsQuery } from './dto/list-products.query';
import { ProductIdPipe } from './product-id.pipe';
import { ProductsService } from './products.service';
import { ApiErrors, ApiNoContent, ApiOperation, ApiReturns } from '@beacon/common';

/** The catalogue is for signed-in users (the store lives in the dashboard); writes and figures are for admins. */
@Controller()
export class ProductsController {
  constructor(private readonly products: ProductsService) {}

  @Get('products')
  @ApiReturns('ProductPage')
  @ApiOperation('products.list', 'List products', 'The catalogue, searched, filtered (category, price range), sorted and paged.')
  @ApiErrors({ 400: ['invalid_price_range'] })
  list(@Query() query: ListProductsQuery) {
    return this.products.list(query);
  }

  @Get('products/featured')
  @ApiReturns('FeaturedProducts')
  @ApiOperation('products.listFeatured', 'Featured products', 'The products the store puts forward.')
  featured(@Query() query: FeaturedProductsQuery) {
    return this.products.featured(query);
  }

  @Get('stats')
  @Roles('admin')
  @ApiReturns('StoreStats')
  @ApiOperation('store.stats', 'Store figures', 'How many products there are, in stock and featured, and by category.')
  stats() {
    return this.products.stats();
  }

  @Get('products/:id')
  @ApiReturns('Product')
  @ApiOperation('products.get', 'One product', 'A product by its id.')
  @ApiErrors({ 400: ['invalid_product_id'], 404: ['product_not_found'] })
  get(@Param('id', ProductIdPipe) id: string) {
    return this.products.get(id);
  }

  @Post('products/:id/views')
  @HttpCode(200)
  @ApiReturns('ProductViewRecorded')
  @ApiOperation('products.recordView', 'Count a product view', 'Records that the caller viewed the product, for its analytics.')
  @ApiErrors({ 400: ['invalid_product_id'], 404: ['product_not_found'] })
  recordView(@Param('id', ProductIdPipe) id: string, @CurrentUser() user: AuthUser) {
    return this.products.recordView(id, user.id);
  }

  @Get('products/:id/analytics')
  @Roles('admin')
  @ApiReturns('ProductAnalytics')
  @ApiOperation('products.analytics', "A product's analytics", "The product's views: in all, by distinct users, this week and today.")
  @ApiErrors({ 400: ['invalid_product_id'], 404: ['product_not_found'] })
  analytics(@Param('id', ProductIdPipe) id: string) {
    return this.products.analytics(id);
  }

  @Post('products')
  @Roles('admin')
  @ApiReturns('Product')
  @ApiOperation('products.create', 'Add a product', 'Adds a product to the catalogue; an affiliate product needs its https:// affiliate URL.')
  @ApiErrors({ 400: ['affiliate_url_required'] })
  create(@Body() body: CreateProductDto) {
    return this.products.create(body);
  }

  @Patch('products/:id')
  @Roles('admin')
  @ApiReturns('Product')
  @ApiOperation('products.update', 'Update a product', 'Changes the fields sent, and only those.')
  @ApiErrors({ 400: ['affiliate_url_required', 'invalid_product_id'], 404: ['product_not_found'] })
  update(@Param('id', ProductIdPipe) id: string, @Body() body: UpdateProductDto) {
    return this.products.update(id, body);
  }

  @Delete('products/:id')
  @Roles('admin')
  @HttpCode(204)
  @ApiNoContent()
  @ApiOperation('products.delete', 'Delete a product', 'Removes a product from the catalogue.')
  @ApiErrors({ 400: ['invalid_product_id'], 404: ['product_not_found'] })
  async delete(@Param('id', ProductIdPipe) id: string) {
    await this.products.delete(id);
  }
}

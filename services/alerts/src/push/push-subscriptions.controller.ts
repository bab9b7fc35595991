import { Body, Controller, Delete, Get, Headers, HttpCode, Post } from '@nestjs/common';
import { AuthUser, CurrentUser, Public } from '@beacon/auth';
import { RateLimited } from '../config/rate-limits';
import { PushSubscriptionDto, RemovePushSubscriptionDto } from './push-subscriptions.dto';
import { PushSubscriptionsService } from './push-subscriptions.service';
import { ApiReturns } from '@beacon/common';

@Controller()
export class PushSubscriptionsController {
  constructor(private readonly push: PushSubscriptionsService) {}

  /** The VAPID public key browsers subscribe with (applicationServerKey). The private key never leaves the server. */
  @Public()
  @Get('push/public-key')
  @ApiReturns('PushPublicKey')
  publicKey() {
    return this.push.publicKey();
  }

  @Post('me/push-subscriptions')
  @RateLimited('pushSubscriptions')
  @ApiReturns('PushSubscription')
  register(@CurrentUser() user: AuthUser, @Body() dto: PushSubscriptionDto, @Headers('user-agent') userAgent?: string) {
    return this.push.register(user, dto, userAgent ?? null);
  }

  @Delete('me/push-subscriptions')
  @RateLimited('pushSubscriptions')
  @HttpCode(200)
  @ApiReturns('PushSubscriptionRemoved')
  remove(@CurrentUser() user: AuthUser, @Body() dto: RemovePushSubscriptionDto) {
    return this.push.remove(user, dto.endpoint);
  }
}

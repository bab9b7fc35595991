import { Body, Controller, Delete, Get, Headers, HttpCode, Post } from '@nestjs/common';
import { AuthUser, CurrentUser, Public } from '@beacon/auth';
import { RateLimited } from '../config/rate-limits';
import { PushSubscriptionDto, RemovePushSubscriptionDto } from './push-subscriptions.dto';
import { PushSubscriptionsService } from './push-subscriptions.service';
import { ApiErrors, ApiOperation, ApiReturns } from '@beacon/common';

@Controller()
export class PushSubscriptionsController {
  constructor(private readonly push: PushSubscriptionsService) {}

  /** The VAPID public key browsers subscribe with (applicationServerKey). The private key never leaves the server. */
  @Public()
  @Get('push/public-key')
  @ApiReturns('PushPublicKey')
  @ApiOperation(
    'push.publicKey',
    'Web Push public key',
    'The VAPID public key browsers subscribe with (applicationServerKey). The private key never leaves the server.',
  )
  publicKey() {
    return this.push.publicKey();
  }

  @Post('me/push-subscriptions')
  @RateLimited('pushSubscriptions')
  @ApiReturns('PushSubscription')
  @ApiOperation(
    'pushSubscriptions.create',
    'Subscribe this browser to push',
    "Stores the browser's push subscription for the caller. Only the endpoints of known push services are taken.",
  )
  @ApiErrors({ 400: ['invalid_push_endpoint', 'invalid_push_keys', 'invalid_url', 'private_address', 'unresolvable_host', 'unsupported_push_service'] })
  register(@CurrentUser() user: AuthUser, @Body() dto: PushSubscriptionDto, @Headers('user-agent') userAgent?: string) {
    return this.push.register(user, dto, userAgent ?? null);
  }

  @Delete('me/push-subscriptions')
  @RateLimited('pushSubscriptions')
  @HttpCode(200)
  @ApiReturns('PushSubscriptionRemoved')
  @ApiOperation('pushSubscriptions.delete', 'Unsubscribe a browser', "Forgets the caller's push subscription with this endpoint.")
  remove(@CurrentUser() user: AuthUser, @Body() dto: RemovePushSubscriptionDto) {
    return this.push.remove(user, dto.endpoint);
  }
}

import { Controller, Get, Header } from '@nestjs/common';
import { IdentityEnv, identitySettings } from '../config/env.dto';
import { SigningKeysService } from '../keys/signing-keys.service';
import { ApiOperation, ApiReturns } from '@beacon/common';

@Controller()
export class SettingsController {
  constructor(
    private readonly env: IdentityEnv,
    private readonly keys: SigningKeysService,
  ) {}

  /** GET /settings: which sign-in methods exist, in the hosted service's shape. */
  @Get('settings')
  @ApiReturns('AuthSettings')
  @ApiOperation(
    'auth.settings',
    'Sign-in settings',
    "Which sign-in methods this server offers (email only) and whether it confirms accounts itself, in the hosted auth API's shape.",
  )
  settings() {
    return {
      external: { email: true, phone: false, anonymous_users: false },
      disable_signup: false,
      mailer_autoconfirm: identitySettings(this.env).autoconfirm,
      phone_autoconfirm: false,
      sms_provider: '',
      saml_enabled: false,
    };
  }

  /** The public keys access tokens are verified with; other services cache them (libs/auth). */
  @Get('.well-known/jwks.json')
  @Header('Cache-Control', 'public, max-age=600')
  @ApiReturns('JsonWebKeySet')
  @ApiOperation(
    'auth.jwks',
    'Token signing keys',
    'The public keys (a JWKS) access tokens are signed with: the services and any client verify tokens against them.',
  )
  jwks() {
    return this.keys.jwks();
  }
}

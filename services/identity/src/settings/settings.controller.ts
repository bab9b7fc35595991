import { Controller, Get, Header } from '@nestjs/common';
import { IdentityEnv, identitySettings } from '../config/env.dto';
import { SigningKeysService } from '../keys/signing-keys.service';
import { ApiReturns } from '@beacon/common';

@Controller()
export class SettingsController {
  constructor(
    private readonly env: IdentityEnv,
    private readonly keys: SigningKeysService,
  ) {}

  /** GET /settings: which sign-in methods exist, in the hosted service's shape. */
  @Get('settings')
  @ApiReturns('AuthSettings')
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
  jwks() {
    return this.keys.jwks();
  }
}

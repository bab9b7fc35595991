import { Injectable } from '@nestjs/common';
import { AUDIENCE_TOKEN_HEADER } from '@beacon/contracts';
import { AppError } from '@beacon/common';
import { ServerKeys } from '../keys/server-keys';
import type { AudiencePreview } from './audience-preview.service';
import { audienceRefusal, countsOf, judgeAudience, readAudienceToken } from './audience-token';

/**
 * The one check every sending route makes before it acts (issue #38): with an Audience-Token header, the call goes
 * ahead only if it is the one previewed and its audience, recomputed now by the same preview (`preview`, the route's
 * own AudiencePreviewService method), is still the one shown (within AUDIENCE_CHANGE_MARGIN, within
 * AUDIENCE_TOKEN_TTL_SECONDS); else 400 invalid_audience_token, or a 409 with the audience as it is now. Without the
 * header it lets the call through, so API clients from before the guard keep working.
 */
@Injectable()
export class AudienceGuard {
  constructor(private readonly keys: ServerKeys) {}

  async check(token: string | undefined, preview: () => Promise<AudiencePreview>): Promise<void> {
    if (token === undefined) return;
    const claim = readAudienceToken(await this.keys.audienceTokenKey(), token);
    if (!claim) {
      throw new AppError(
        400,
        'invalid_audience_token',
        `The ${AUDIENCE_TOKEN_HEADER} header is not a token Beacon gave: send the token of the audience preview you confirmed, or none`,
      );
    }
    const { audience, request } = await preview();
    const verdict = judgeAudience(claim, request, countsOf(audience), Date.now());
    if (verdict !== 'ok') throw audienceRefusal(verdict, request.action, claim, audience);
  }
}

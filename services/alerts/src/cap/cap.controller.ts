import { Controller, Get, Header, Param, ParseUUIDPipe, Res } from '@nestjs/common';
import type { Response } from 'express';
import { Public } from '@beacon/auth';
import { ApiErrors, ApiFile, ApiOperation, badRequest, notFound } from '@beacon/common';
import { AlertsDeliveryEnv } from '../config/delivery-env';
import { CapRepository } from './cap.repository';
import { ATOM_CONTENT_TYPE, atomFeed, CAP_CONTENT_TYPE, capMessage, CapSite } from './cap.xml';

/** How long an ended alert stays in the feed, so a consumer polling now and then still sees the cancel or expiry. */
const ENDED_WITHIN_HOURS = 24;
const FEED_LIMIT = 100;

/** Public: aggregators and broadcasters poll these without an account. Express adds a weak ETag to each body. */
const CACHE = 'public, max-age=60';

/**
 * The Common Alerting Protocol (OASIS CAP 1.2) face of the alerts service: an Atom index of the public alerts
 * and one CAP message per alert. Drafts and test alerts are not public: they answer 404 like an unknown id.
 */
@Public()
@Controller('cap')
export class CapController {
  private readonly site: CapSite;

  constructor(
    private readonly repo: CapRepository,
    env: AlertsDeliveryEnv,
  ) {
    this.site = new CapSite(env.PUBLIC_URL);
  }

  @Get('alerts.atom')
  @Header('Cache-Control', CACHE)
  @ApiFile(ATOM_CONTENT_TYPE)
  @ApiOperation(
    'cap.feed',
    'CAP feed of public alerts',
    'An Atom index of the public alerts (OASIS CAP 1.2), those ended in the last day included, for aggregators and broadcasters.',
  )
  async feed(@Res({ passthrough: true }) res: Response) {
    const alerts = await this.repo.feed(ENDED_WITHIN_HOURS, FEED_LIMIT);
    res.type(ATOM_CONTENT_TYPE);
    return atomFeed(alerts, this.site);
  }

  @Get('alerts/:id.xml')
  @Header('Cache-Control', CACHE)
  @ApiFile(CAP_CONTENT_TYPE)
  @ApiOperation(
    'cap.message',
    'One alert as a CAP message',
    'A public alert as a CAP 1.2 message. Drafts and test alerts are not public: they answer 404 like an unknown id.',
  )
  @ApiErrors({ 400: ['invalid_alert_id'], 404: ['alert_not_found'] })
  async message(
    @Param('id', new ParseUUIDPipe({ exceptionFactory: () => badRequest('Alert id must be a UUID', 'invalid_alert_id') })) id: string,
    @Res({ passthrough: true }) res: Response,
  ) {
    const alert = await this.repo.findPublished(id);
    if (!alert) throw notFound('Alert', 'alert_not_found');
    res.type(CAP_CONTENT_TYPE);
    return capMessage(alert, this.site);
  }
}

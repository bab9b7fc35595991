import { Body, Controller, Delete, Get, HttpCode, Param, ParseUUIDPipe, Post, Put, Res } from '@nestjs/common';
import type { Response } from 'express';
import { AuthUser, CurrentUser, MinRole } from '@beacon/auth';
import { ApiErrors, ApiFile, ApiNoContent, ApiOperation, ApiReturns, notFound, RateLimitExceeded } from '@beacon/common';
import { ALERT_CONTENT_ERRORS } from '../alerts/alert-content.errors';
import { alertIdPipe } from '../alerts/alert-id.pipe';
import { CAP_CONTENT_TYPE } from '../cap/cap.xml';
import { CapSourcesService } from './cap-sources.service';
import { CapSourceDto } from './dto/cap-source.dto';

const sourceId = new ParseUUIDPipe({ exceptionFactory: () => notFound('CAP source', 'cap_source_not_found') });

/** Admin: the CAP sources Beacon takes official warnings from (issue 23), their health, and a CAP-made alert's origin. */
@Controller('admin/cap-sources')
// each route names the least role it needs (issue #38); one that does not is for admins only
@MinRole('admin')
export class CapSourcesController {
  constructor(private readonly sources: CapSourcesService) {}

  @Get()
  @MinRole('viewer')
  @ApiReturns('CapSourceList')
  @ApiOperation('capSources.list', 'CAP sources', 'The feeds Beacon takes official warnings from, with their health.')
  list() {
    return this.sources.list();
  }

  @Post()
  @ApiReturns('CapSource')
  @ApiOperation(
    'capSources.create',
    'Add a CAP source',
    'Adds a feed to poll, with the warnings it takes (categories, severities) and what they become (drafts, or alerts sent).',
  )
  @ApiErrors({ 404: ['cap_source_not_found'] })
  create(@CurrentUser() user: AuthUser, @Body() dto: CapSourceDto) {
    return this.sources.create(dto, user.id);
  }

  /** Where an alert made from a CAP message came from: the source, the message's identifiers and address. */
  @Get('alerts/:alertId')
  @MinRole('viewer')
  @ApiReturns('CapOrigin')
  @ApiOperation(
    'capSources.originOfAlert',
    'Where a CAP-made alert came from',
    "The source, the message's identifiers and its address, for an alert made from a CAP message.",
  )
  @ApiErrors({ 404: ['alert_not_found', 'cap_origin_not_found'] })
  origin(@Param('alertId', alertIdPipe) alertId: string) {
    return this.sources.origin(alertId);
  }

  /** The original CAP message, as it was received. */
  @Get('alerts/:alertId/original.xml')
  @MinRole('viewer')
  @ApiFile(CAP_CONTENT_TYPE)
  @ApiOperation('capSources.originalMessage', 'The original CAP message', 'The CAP message an alert was made from, as it was received.')
  @ApiErrors({ 404: ['alert_not_found', 'cap_origin_not_found'] })
  async original(@Param('alertId', alertIdPipe) alertId: string, @Res({ passthrough: true }) res: Response) {
    const xml = await this.sources.originalXml(alertId);
    res.type(CAP_CONTENT_TYPE);
    // Shown as a file, never rendered as a page of ours.
    res.setHeader('Content-Disposition', `inline; filename="cap-${alertId}.xml"`);
    res.setHeader('X-Content-Type-Options', 'nosniff');
    return xml;
  }

  @Get(':id')
  @MinRole('viewer')
  @ApiReturns('CapSource')
  @ApiOperation('capSources.get', 'One CAP source', 'A source with its health.')
  @ApiErrors({ 404: ['cap_source_not_found'] })
  get(@Param('id', sourceId) id: string) {
    return this.sources.get(id);
  }

  @Put(':id')
  @ApiReturns('CapSource')
  @ApiOperation('capSources.update', 'Update a CAP source', "Replaces a source's settings.")
  @ApiErrors({ 404: ['cap_source_not_found'] })
  update(@Param('id', sourceId) id: string, @Body() dto: CapSourceDto) {
    return this.sources.update(id, dto);
  }

  @Delete(':id')
  @HttpCode(204)
  @ApiNoContent()
  @ApiOperation('capSources.delete', 'Delete a CAP source', 'Stops polling a source and removes it.')
  @ApiErrors({ 404: ['cap_source_not_found'] })
  async remove(@Param('id', sourceId) id: string) {
    await this.sources.remove(id);
  }

  /** Fetches the source now, whatever its schedule; answers what the poll did. */
  @Post(':id/poll')
  @HttpCode(200)
  @ApiReturns('CapPollResult')
  @ApiOperation(
    'capSources.poll',
    'Poll a CAP source now',
    "Fetches the source now, whatever its schedule, and applies its messages (new alerts, updates, cancels); answers what the poll did. A message Beacon cannot take as an alert makes the poll fail with that message's error. The feed's host is fetched at most CAP_SOURCE_RATE_LIMIT times per window by every source together: over it, 429 with Retry-After.",
  )
  @ApiErrors(ALERT_CONTENT_ERRORS)
  @ApiErrors({
    404: ['alert_not_found', 'cap_source_not_found'],
    409: ['alert_update_conflict', 'invalid_alert_status'],
    429: ['rate_limited'],
  })
  async poll(@Param('id', sourceId) id: string, @Res({ passthrough: true }) res: Response) {
    try {
      return await this.sources.pollNow(id);
    } catch (e) {
      if (e instanceof RateLimitExceeded) res.setHeader('Retry-After', String(e.retryAfter));
      throw e;
    }
  }
}

import { Body, Controller, Delete, Get, HttpCode, Param, ParseUUIDPipe, Post, Put, Res } from '@nestjs/common';
import type { Response } from 'express';
import { AuthUser, CurrentUser, Roles } from '@beacon/auth';
import { ApiFile, ApiNoContent, ApiReturns, notFound } from '@beacon/common';
import { alertIdPipe } from '../alerts/alert-id.pipe';
import { CAP_CONTENT_TYPE } from '../cap/cap.xml';
import { CapSourcesService } from './cap-sources.service';
import { CapSourceDto } from './dto/cap-source.dto';

const sourceId = new ParseUUIDPipe({ exceptionFactory: () => notFound('CAP source', 'cap_source_not_found') });

/** Admin: the CAP sources Beacon takes official warnings from (issue 23), their health, and a CAP-made alert's origin. */
@Controller('admin/cap-sources')
@Roles('admin')
export class CapSourcesController {
  constructor(private readonly sources: CapSourcesService) {}

  @Get()
  @ApiReturns('CapSourceList')
  list() {
    return this.sources.list();
  }

  @Post()
  @ApiReturns('CapSource')
  create(@CurrentUser() user: AuthUser, @Body() dto: CapSourceDto) {
    return this.sources.create(dto, user.id);
  }

  /** Where an alert made from a CAP message came from: the source, the message's identifiers and address. */
  @Get('alerts/:alertId')
  @ApiReturns('CapOrigin')
  origin(@Param('alertId', alertIdPipe) alertId: string) {
    return this.sources.origin(alertId);
  }

  /** The original CAP message, as it was received. */
  @Get('alerts/:alertId/original.xml')
  @ApiFile(CAP_CONTENT_TYPE)
  async original(@Param('alertId', alertIdPipe) alertId: string, @Res({ passthrough: true }) res: Response) {
    const xml = await this.sources.originalXml(alertId);
    res.type(CAP_CONTENT_TYPE);
    // Shown as a file, never rendered as a page of ours.
    res.setHeader('Content-Disposition', `inline; filename="cap-${alertId}.xml"`);
    res.setHeader('X-Content-Type-Options', 'nosniff');
    return xml;
  }

  @Get(':id')
  @ApiReturns('CapSource')
  get(@Param('id', sourceId) id: string) {
    return this.sources.get(id);
  }

  @Put(':id')
  @ApiReturns('CapSource')
  update(@Param('id', sourceId) id: string, @Body() dto: CapSourceDto) {
    return this.sources.update(id, dto);
  }

  @Delete(':id')
  @HttpCode(204)
  @ApiNoContent()
  async remove(@Param('id', sourceId) id: string) {
    await this.sources.remove(id);
  }

  /** Fetches the source now, whatever its schedule; answers what the poll did. */
  @Post(':id/poll')
  @HttpCode(200)
  @ApiReturns('CapPollResult')
  poll(@Param('id', sourceId) id: string) {
    return this.sources.pollNow(id);
  }
}

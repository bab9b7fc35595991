import { Controller, Get } from '@nestjs/common';
import { Public } from '@beacon/auth';
import { EventsRepository } from './events.repository';
import { ApiOperation, ApiReturns } from '@beacon/common';

/** Public: the anonymous map reads these without a token. */
@Controller('events')
@Public()
export class EventsController {
  constructor(private readonly events: EventsRepository) {}

  /** Active traffic events with coordinates. */
  @Get('active')
  @ApiReturns('TrafficEvents')
  @ApiOperation('trafficEvents.listActive', 'Active traffic events', 'The traffic events in effect that have coordinates.')
  async active() {
    return { items: await this.events.listActive() };
  }
}

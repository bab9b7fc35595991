import { Controller, Get } from '@nestjs/common';
import { Public } from '@beacon/auth';
import { EventsRepository } from './events.repository';

/** Public: the anonymous map reads these without a token. */
@Controller('events')
@Public()
export class EventsController {
  constructor(private readonly events: EventsRepository) {}

  /** Active traffic events with coordinates. */
  @Get('active')
  async active() {
    return { items: await this.events.listActive() };
  }
}

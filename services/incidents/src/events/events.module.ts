import { Global, Module } from '@nestjs/common';
import { Outbox } from './outbox';

/** Outgoing events: the outbox relaying to the queues (QueueModule); live Socket.IO updates are LiveEventsModule's. */
@Global()
@Module({
  providers: [Outbox],
  exports: [Outbox],
})
export class EventsModule {}

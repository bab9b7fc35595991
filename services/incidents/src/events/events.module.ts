import { Global, Module } from '@nestjs/common';
import { JobQueue } from './job-queue';
import { Outbox } from './outbox';
import { SocketEmitter } from './socket-emitter';

/** Outgoing events: the outbox relaying to BullMQ, and live Socket.IO updates through Redis. */
@Global()
@Module({
  providers: [JobQueue, Outbox, SocketEmitter],
  exports: [Outbox, SocketEmitter],
})
export class EventsModule {}

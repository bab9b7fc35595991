import { Global, Module } from '@nestjs/common';
import { Outbox } from './outbox';
import { SocketEmitter } from './socket-emitter';

/** Outgoing events: the outbox relaying to the queues (QueueModule), and live Socket.IO updates through Redis. */
@Global()
@Module({
  providers: [Outbox, SocketEmitter],
  exports: [Outbox, SocketEmitter],
})
export class EventsModule {}

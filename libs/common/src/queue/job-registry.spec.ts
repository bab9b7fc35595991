import { Injectable } from '@nestjs/common';
import { DiscoveryModule } from '@nestjs/core';
import { Test } from '@nestjs/testing';
import { JobName, QueueName } from '@beacon/contracts';
import { JobRegistry, OnJob } from './job-registry';

@Injectable()
class IncidentHandler {
  @OnJob(JobName.IncidentVerified)
  async handle(data: { incidentId: string }) {
    return data.incidentId;
  }
}

/** The queue's other job (the alerts inbox also carries the CAP source polls). */
@Injectable()
class CapPollHandler {
  @OnJob(JobName.CapSourcePoll)
  async handle() {
    return 'polled';
  }
}

@Injectable()
class SecondIncidentHandler {
  @OnJob(JobName.IncidentVerified)
  async handle() {
    return 'second';
  }
}

@Injectable()
class StrayHandler {
  @OnJob(JobName.PushSend)
  async handle() {
    return 'stray';
  }
}

async function registry(...providers: (new (...args: never[]) => unknown)[]) {
  const mod = await Test.createTestingModule({ imports: [DiscoveryModule], providers: [JobRegistry, ...providers] }).compile();
  return mod.get(JobRegistry);
}

describe('JobRegistry', () => {
  it('maps each job of the worked queues to its one handler', async () => {
    const handlers = (await registry(IncidentHandler, CapPollHandler)).handlersFor([QueueName.AlertsInbox]);
    expect([...handlers.keys()].sort()).toEqual([JobName.CapSourcePoll, JobName.IncidentVerified].sort());
    await expect(handlers.get(JobName.IncidentVerified)!({ incidentId: 'i-1' } as never, {} as never)).resolves.toBe('i-1');
  });

  it('refuses to start when a job of a worked queue has no handler', async () => {
    const r = await registry(IncidentHandler);
    expect(() => r.handlersFor([QueueName.AlertsInbox, QueueName.Sms])).toThrow(/job 'sms.send' on queue 'channel-sms' has no handler/);
  });

  it('refuses to start when a job has two handlers', async () => {
    const r = await registry(IncidentHandler, SecondIncidentHandler);
    expect(() => r.handlersFor([QueueName.AlertsInbox])).toThrow(
      /job 'incident.verified' has 2 handlers \(IncidentHandler.handle, SecondIncidentHandler.handle\)/,
    );
  });

  it('refuses a handler for a queue this process does not work (it would never run)', async () => {
    const r = await registry(IncidentHandler, StrayHandler);
    expect(() => r.handlersFor([QueueName.AlertsInbox])).toThrow(
      /job 'push.send' has a handler \(StrayHandler.handle\) but its queue 'channel-push' is not run here/,
    );
  });
});

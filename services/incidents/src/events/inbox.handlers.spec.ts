import { DiscoveryModule } from '@nestjs/core';
import { Test } from '@nestjs/testing';
import { JobRegistry, LiveEvents } from '@beacon/common';
import { JOB_QUEUE, JobName, QueueName } from '@beacon/contracts';
import { PointsRepository } from '../community/points.repository';
import { IncidentsRepository } from '../incidents/incidents.repository';
import { IncidentsInboxHandlers } from './inbox.handlers';

describe('incidents inbox handlers', () => {
  it('handle every job of the incidents inbox, and nothing else', async () => {
    const mod = await Test.createTestingModule({
      imports: [DiscoveryModule],
      providers: [
        JobRegistry,
        IncidentsInboxHandlers,
        { provide: PointsRepository, useValue: {} },
        { provide: IncidentsRepository, useValue: {} },
        { provide: LiveEvents, useValue: {} },
      ],
    }).compile();
    const handlers = mod.get(JobRegistry).handlersFor([QueueName.IncidentsInbox]);
    const inboxJobs = (Object.keys(JOB_QUEUE) as JobName[]).filter((j) => JOB_QUEUE[j] === QueueName.IncidentsInbox);
    expect([...handlers.keys()].sort()).toEqual(inboxJobs.sort());
    expect(inboxJobs).toEqual(expect.arrayContaining([JobName.IncidentCreated, JobName.PostCreated, JobName.CommentCreated, JobName.PostLiked]));
  });
});

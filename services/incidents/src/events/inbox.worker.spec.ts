import { JobName, levelFor, QueueName } from '@beacon/contracts';
import { assertHandlesExactly, jobsOf } from './inbox.worker';

const noop = async () => undefined;

describe('incidents inbox handlers', () => {
  it('the inbox carries the community and incident events', () => {
    expect(jobsOf(QueueName.IncidentsInbox)).toEqual(expect.arrayContaining([JobName.IncidentCreated, JobName.PostCreated, JobName.CommentCreated, JobName.PostLiked]));
  });

  it('refuses to start with a job left unhandled or a job of another queue', () => {
    const all = Object.fromEntries(jobsOf(QueueName.IncidentsInbox).map((j) => [j, noop]));
    expect(() => assertHandlesExactly(QueueName.IncidentsInbox, all)).not.toThrow();
    const { [JobName.PostLiked]: _missing, ...withoutLikes } = all;
    expect(() => assertHandlesExactly(QueueName.IncidentsInbox, withoutLikes)).toThrow(/no handler for post\.liked/);
    expect(() => assertHandlesExactly(QueueName.IncidentsInbox, { ...all, [JobName.IncidentVerified]: noop })).toThrow(/other queues: incident\.verified/);
  });
});

describe('levels', () => {
  it.each([
    [0, 1, 'Newcomer', 51, 0],
    [25, 1, 'Newcomer', 51, 49],
    [50, 1, 'Newcomer', 51, 98],
    [51, 2, 'Regular', 201, 0],
    [200, 2, 'Regular', 201, 99],
    [201, 3, 'Contributor', 501, 0],
    [500, 3, 'Contributor', 501, 99],
    [501, 4, 'Expert', null, 100],
    [9000, 4, 'Expert', null, 100],
  ])('%i points: level %i %s, next at %s, %i%%', (points, level, levelName, nextLevelAt, progress) => {
    expect(levelFor(points)).toEqual({ points, level, levelName, nextLevelAt, progress, hasRecord: true });
  });

  it("is 'New Member' without a record", () => {
    expect(levelFor(0, false).levelName).toBe('New Member');
  });
});

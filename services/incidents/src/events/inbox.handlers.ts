import { Injectable } from '@nestjs/common';
import { LiveEvents, OnJob } from '@beacon/common';
import { JobName, JobPayloads, Rooms } from '@beacon/contracts';
import { PointsRepository } from '../community/points.repository';
import { IncidentsRepository } from '../incidents/incidents.repository';

/**
 * The incidents inbox: points from community events, moderation notices for new reports. Worked by the shared
 * queue kernel (QueueModule in app.module.ts); handlers let errors propagate so it retries with the shared backoff,
 * and each is idempotent.
 */
@Injectable()
export class IncidentsInboxHandlers {
  constructor(
    private readonly points: PointsRepository,
    private readonly incidents: IncidentsRepository,
    private readonly sockets: LiveEvents,
  ) {}

  @OnJob(JobName.PostCreated)
  async postCreated({ postId }: JobPayloads[JobName.PostCreated]) {
    await this.points.awardForPost(postId);
  }

  @OnJob(JobName.CommentCreated)
  async commentCreated({ commentId }: JobPayloads[JobName.CommentCreated]) {
    await this.points.awardForComment(commentId);
  }

  @OnJob(JobName.PostLiked)
  async postLiked({ postId, userId }: JobPayloads[JobName.PostLiked]) {
    await this.points.reconcileLike(postId, userId);
  }

  @OnJob(JobName.IncidentCreated)
  async incidentCreated(event: JobPayloads[JobName.IncidentCreated]) {
    // the moderation queue of admins watching it refreshes itself; an auto-approved report is already verified
    const status = await this.incidents.statusOf(event.incidentId);
    if (!status) return;
    this.sockets.to(Rooms.admins).emit('incident:reported', { id: event.incidentId, type: event.type, status, createdAt: event.occurredAt });
  }
}

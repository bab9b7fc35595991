import { Injectable, Logger } from '@nestjs/common';
import { badRequest, jobId, LiveEvents, notFound } from '@beacon/common';
import { AuthUser } from '@beacon/auth';
import {
  COMMUNITY_LIMITS,
  CommunityComment,
  CommunityPost,
  CommunityStats,
  JobName,
  LikeResult,
  levelFor,
  MyCommunityActivityPage,
  Rooms,
  UserPoints,
} from '@beacon/contracts';
import { Outbox } from '../events/outbox';
import { UploadsService } from '../uploads/uploads.service';
import { toComment, toMyActivity, toPost } from './community.entity';
import { CommunityRepository } from './community.repository';
import { CreateCommentDto, CreatePostDto, ListPostsQuery } from './dto/community.dto';
import { MyActivityQuery } from './dto/my-activity.query';

@Injectable()
export class CommunityService {
  private readonly logger = new Logger('Community');

  constructor(
    private readonly repo: CommunityRepository,
    private readonly uploads: UploadsService,
    private readonly outbox: Outbox,
    private readonly sockets: LiveEvents,
  ) {}

  async listPosts(viewerId: string | null, q: ListPostsQuery): Promise<{ items: CommunityPost[]; total: number }> {
    // the radius filter applies below the slider's maximum, and needs a centre
    const near =
      q.radiusKm !== undefined && q.radiusKm < COMMUNITY_LIMITS.radiusMaxKm && q.lat !== undefined && q.lng !== undefined
        ? { lat: q.lat, lng: q.lng, radiusM: q.radiusKm * 1000 }
        : undefined;
    if (q.radiusKm !== undefined && q.radiusKm < COMMUNITY_LIMITS.radiusMaxKm && !near) {
      throw badRequest('A radius filter needs lat and lng', 'location_required');
    }
    const { rows, total } = await this.repo.listPosts(viewerId, {
      category: q.category,
      search: q.search || undefined,
      sort: q.sort,
      near,
      limit: q.limit,
      offset: q.offset,
    });
    return { items: rows.map((r) => toPost(r, viewerId)), total };
  }

  async getPost(viewerId: string | null, id: string): Promise<CommunityPost> {
    const row = await this.repo.findActivePost(viewerId, id);
    if (!row) throw notFound('Post', 'post_not_found');
    return toPost(row, viewerId);
  }

  async trending(viewerId: string | null): Promise<{ items: CommunityPost[] }> {
    return { items: (await this.repo.trending(viewerId)).map((r) => toPost(r, viewerId)) };
  }

  async createPost(user: AuthUser, dto: CreatePostDto): Promise<CommunityPost> {
    if (dto.imagePath) await this.uploads.assertOwnUpload(dto.imagePath, 'community-post-photos', user.id);
    const row = await this.repo.transaction(async (m) => {
      const created = await this.repo.insertPost(m, {
        title: dto.title,
        category: dto.category,
        description: dto.description,
        imagePath: dto.imagePath ?? null,
        lat: dto.lat,
        lng: dto.lng,
        locationName: dto.locationName ?? null,
        userId: user.id,
      });
      await this.outbox.add(m, JobName.PostCreated, { postId: created.id, userId: user.id }, jobId(JobName.PostCreated, created.id));
      return created;
    });
    void this.outbox.flush();
    this.live(() =>
      this.sockets.to(Rooms.public).emit('community:post', {
        id: row.id,
        title: row.title,
        category: row.category,
        userId: row.user_id,
        createdAt: row.created_at.toISOString(),
      }),
    );
    return toPost(row, user.id);
  }

  async listComments(viewerId: string | null, postId: string): Promise<{ items: CommunityComment[] }> {
    if (!(await this.repo.findActivePost(viewerId, postId))) throw notFound('Post', 'post_not_found');
    return { items: (await this.repo.listComments(postId)).map((r) => toComment(r, viewerId)) };
  }

  async createComment(user: AuthUser, postId: string, dto: CreateCommentDto): Promise<CommunityComment> {
    const row = await this.repo.transaction(async (m) => {
      const post = await this.repo.findActivePost(user.id, postId, m);
      if (!post) throw notFound('Post', 'post_not_found');
      if (dto.parentId && !(await this.repo.commentBelongsTo(m, dto.parentId, postId))) {
        throw badRequest('The comment you are replying to was not found', 'parent_not_found');
      }
      const created = await this.repo.insertComment(m, { postId, userId: user.id, content: dto.content, parentId: dto.parentId ?? null });
      await this.outbox.add(
        m,
        JobName.CommentCreated,
        { commentId: created.id, postId, userId: user.id, postAuthorId: post.user_id },
        jobId(JobName.CommentCreated, created.id),
      );
      return created;
    });
    void this.outbox.flush();
    this.live(() =>
      this.sockets.to(Rooms.public).emit('community:comment', {
        id: row.id,
        postId: row.post_id,
        parentId: row.parent_id,
        userId: row.user_id,
        content: row.content,
        createdAt: row.created_at.toISOString(),
      }),
    );
    return toComment(row, user.id);
  }

  async toggleLike(user: AuthUser, postId: string): Promise<LikeResult> {
    const result = await this.repo.transaction(async (m) => {
      const post = await this.repo.findActivePost(user.id, postId, m);
      if (!post) throw notFound('Post', 'post_not_found');
      const toggled = await this.repo.toggleLike(m, postId, user.id);
      if (toggled.changed) {
        // no job id: every toggle is its own event; the points worker reconciles against the table
        await this.outbox.add(m, JobName.PostLiked, { postId, userId: user.id, postAuthorId: post.user_id, liked: toggled.liked });
      }
      return toggled;
    });
    void this.outbox.flush();
    return { postId, liked: result.liked, likesCount: result.likesCount };
  }

  async pointsOf(userId: string): Promise<UserPoints> {
    const points = await this.repo.points(userId);
    return levelFor(points ?? 0, points !== null);
  }

  /** The dashboard's community activity: the user's own posts, comments and levels reached. */
  async myActivity(userId: string, q: MyActivityQuery): Promise<MyCommunityActivityPage> {
    const { rows, total } = await this.repo.myActivity(userId, q.limit, q.offset);
    return { items: rows.map(toMyActivity), total };
  }

  stats(): Promise<CommunityStats> {
    return this.repo.stats();
  }

  /** Live updates are a courtesy: a Redis hiccup must not fail a post that is already saved. */
  private live(emit: () => void) {
    try {
      emit();
    } catch (e) {
      this.logger.warn(`live update not sent: ${(e as Error).message}`);
    }
  }
}

import { Body, Controller, Get, HttpCode, Param, ParseUUIDPipe, Post, Query } from '@nestjs/common';
import { AuthUser, CurrentUser, OptionalAuth } from '@beacon/auth';
import { ApiReturns, AppError } from '@beacon/common';
import { COMMUNITY_MESSAGES } from '@beacon/contracts';
import { RateLimited } from '../common/rate-limits';
import { RequireSignIn } from '../common/require-sign-in';
import { CommunityService } from './community.service';
import { CreateCommentDto, CreatePostDto, ListPostsQuery } from './dto/community.dto';
import { MyActivityQuery } from './dto/my-activity.query';

const PostId = new ParseUUIDPipe({ exceptionFactory: () => new AppError(404, 'post_not_found', 'Post not found') });

/** Reading is open (the list shows the caller's likes when a token is sent); writing needs sign-in. */
@Controller('community')
@OptionalAuth()
export class CommunityController {
  constructor(private readonly community: CommunityService) {}

  @Get('posts')
  @ApiReturns('CommunityPostPage')
  list(@CurrentUser() user: AuthUser | undefined, @Query() q: ListPostsQuery) {
    return this.community.listPosts(user?.id ?? null, q);
  }

  @Get('posts/trending')
  @ApiReturns('CommunityPosts')
  trending(@CurrentUser() user: AuthUser | undefined) {
    return this.community.trending(user?.id ?? null);
  }

  @Get('posts/:id')
  @ApiReturns('CommunityPost')
  get(@CurrentUser() user: AuthUser | undefined, @Param('id', PostId) id: string) {
    return this.community.getPost(user?.id ?? null, id);
  }

  @Post('posts')
  @RequireSignIn(COMMUNITY_MESSAGES.signInToPost)
  @RateLimited('posts')
  @ApiReturns('CommunityPost')
  create(@CurrentUser() user: AuthUser, @Body() dto: CreatePostDto) {
    return this.community.createPost(user, dto);
  }

  @Get('posts/:id/comments')
  @ApiReturns('CommunityComments')
  comments(@CurrentUser() user: AuthUser | undefined, @Param('id', PostId) id: string) {
    return this.community.listComments(user?.id ?? null, id);
  }

  @Post('posts/:id/comments')
  @RequireSignIn(COMMUNITY_MESSAGES.signInToComment)
  @RateLimited('comments')
  @ApiReturns('CommunityComment')
  comment(@CurrentUser() user: AuthUser, @Param('id', PostId) id: string, @Body() dto: CreateCommentDto) {
    return this.community.createComment(user, id, dto);
  }

  @Post('posts/:id/like')
  @HttpCode(200)
  @RequireSignIn(COMMUNITY_MESSAGES.signInToLike)
  @RateLimited('likes')
  @ApiReturns('LikeResult')
  like(@CurrentUser() user: AuthUser, @Param('id', PostId) id: string) {
    return this.community.toggleLike(user, id);
  }

  @Get('points/me')
  @RequireSignIn('You need to sign in to do that')
  @ApiReturns('UserPoints')
  points(@CurrentUser() user: AuthUser) {
    return this.community.pointsOf(user.id);
  }

  @Get('me/activity')
  @RequireSignIn('You need to sign in to do that')
  @ApiReturns('MyCommunityActivityPage')
  myActivity(@CurrentUser() user: AuthUser, @Query() q: MyActivityQuery) {
    return this.community.myActivity(user.id, q);
  }

  @Get('stats')
  @ApiReturns('CommunityStats')
  stats() {
    return this.community.stats();
  }
}

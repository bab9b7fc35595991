import { Body, Controller, Get, HttpCode, Param, ParseUUIDPipe, Post, Query } from '@nestjs/common';
import { AuthUser, CurrentUser, OptionalAuth } from '@beacon/auth';
import { ApiErrors, ApiOperation, ApiReturns, AppError } from '@beacon/common';
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
  @ApiOperation(
    'communityPosts.list',
    'List community posts',
    'Posts, filtered (a place and radius among others) and paged; with a token, each says whether the caller liked it.',
  )
  @ApiErrors({ 400: ['location_required'] })
  list(@CurrentUser() user: AuthUser | undefined, @Query() q: ListPostsQuery) {
    return this.community.listPosts(user?.id ?? null, q);
  }

  @Get('posts/trending')
  @ApiReturns('CommunityPosts')
  @ApiOperation('communityPosts.trending', 'Trending posts', 'The most-liked posts of the last days.')
  trending(@CurrentUser() user: AuthUser | undefined) {
    return this.community.trending(user?.id ?? null);
  }

  @Get('posts/:id')
  @ApiReturns('CommunityPost')
  @ApiOperation('communityPosts.get', 'One community post', 'A post by its id.')
  @ApiErrors({ 404: ['post_not_found'] })
  get(@CurrentUser() user: AuthUser | undefined, @Param('id', PostId) id: string) {
    return this.community.getPost(user?.id ?? null, id);
  }

  @Post('posts')
  @RequireSignIn(COMMUNITY_MESSAGES.signInToPost)
  @RateLimited('posts')
  @ApiReturns('CommunityPost')
  @ApiOperation('communityPosts.create', 'Write a post', 'Publishes a post by the caller, with a photo uploaded before.')
  @ApiErrors({ 400: ['upload_not_found'] })
  create(@CurrentUser() user: AuthUser, @Body() dto: CreatePostDto) {
    return this.community.createPost(user, dto);
  }

  @Get('posts/:id/comments')
  @ApiReturns('CommunityComments')
  @ApiOperation('communityComments.list', "A post's comments", 'The comments of a post (a reply names the comment it answers).')
  @ApiErrors({ 404: ['post_not_found'] })
  comments(@CurrentUser() user: AuthUser | undefined, @Param('id', PostId) id: string) {
    return this.community.listComments(user?.id ?? null, id);
  }

  @Post('posts/:id/comments')
  @RequireSignIn(COMMUNITY_MESSAGES.signInToComment)
  @RateLimited('comments')
  @ApiReturns('CommunityComment')
  @ApiOperation('communityComments.create', 'Comment on a post', 'Adds a comment to a post, or a reply to one of its comments.')
  @ApiErrors({ 400: ['parent_not_found'], 404: ['post_not_found'] })
  comment(@CurrentUser() user: AuthUser, @Param('id', PostId) id: string, @Body() dto: CreateCommentDto) {
    return this.community.createComment(user, id, dto);
  }

  @Post('posts/:id/like')
  @HttpCode(200)
  @RequireSignIn(COMMUNITY_MESSAGES.signInToLike)
  @RateLimited('likes')
  @ApiReturns('LikeResult')
  @ApiOperation('communityPosts.toggleLike', 'Like or unlike a post', "Likes the post, or takes the caller's like back; answers the new state and count.")
  @ApiErrors({ 404: ['post_not_found'] })
  like(@CurrentUser() user: AuthUser, @Param('id', PostId) id: string) {
    return this.community.toggleLike(user, id);
  }

  @Get('points/me')
  @RequireSignIn('You need to sign in to do that')
  @ApiReturns('UserPoints')
  @ApiOperation('communityPoints.getMine', 'My points', "The caller's community points.")
  points(@CurrentUser() user: AuthUser) {
    return this.community.pointsOf(user.id);
  }

  @Get('me/activity')
  @RequireSignIn('You need to sign in to do that')
  @ApiReturns('MyCommunityActivityPage')
  @ApiOperation('communityActivity.listMine', 'My community activity', "The caller's own posts, comments and levels reached, paged.")
  myActivity(@CurrentUser() user: AuthUser, @Query() q: MyActivityQuery) {
    return this.community.myActivity(user.id, q);
  }

  @Get('stats')
  @ApiReturns('CommunityStats')
  @ApiOperation('community.stats', 'Community figures', 'Members, posts this week and comments today.')
  stats() {
    return this.community.stats();
  }
}

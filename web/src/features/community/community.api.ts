import type { ThunkDispatch, UnknownAction } from '@reduxjs/toolkit';
import { api } from '@/app/api';
import type { RootState } from '@/app/store';
import type { CommunityComment, CommunityPost, CommunityStats, LikeResult, PostCategory, PostSort } from '@beacon/contracts';
import { COMMUNITY_LIMITS } from '@beacon/contracts';

export interface PostFilters {
  category: PostCategory | '';
  search: string;
  sort: PostSort;
  /** 50 means anywhere; below 50 needs `near`. */
  radiusKm: number;
  near: { lat: number; lng: number } | null;
}

export interface PostPage {
  items: CommunityPost[];
  total: number;
}

export interface NewPost {
  title: string;
  category: PostCategory;
  description: string;
  lat: number;
  lng: number;
  locationName?: string | null;
  imagePath?: string | null;
}

export function postsQueryString(f: PostFilters, offset: number): string {
  const q = new URLSearchParams({ sort: f.sort, limit: String(COMMUNITY_LIMITS.pageSize), offset: String(offset) });
  if (f.category) q.set('category', f.category);
  if (f.search.trim()) q.set('search', f.search.trim());
  if (f.radiusKm < COMMUNITY_LIMITS.radiusMaxKm && f.near) {
    q.set('radiusKm', String(f.radiusKm));
    q.set('lat', String(f.near.lat));
    q.set('lng', String(f.near.lng));
  }
  return q.toString();
}

export const communityApi = api.injectEndpoints({
  endpoints: (build) => ({
    listPosts: build.infiniteQuery<PostPage, PostFilters, number>({
      infiniteQueryOptions: {
        initialPageParam: 0,
        getNextPageParam: (last, all) => {
          const loaded = all.reduce((n, p) => n + p.items.length, 0);
          return last.items.length > 0 && loaded < last.total ? loaded : undefined;
        },
      },
      query: ({ queryArg, pageParam }) => `api/incidents/community/posts?${postsQueryString(queryArg, pageParam)}`,
      providesTags: ['Post'],
    }),
    getPost: build.query<CommunityPost, string>({
      query: (id) => `api/incidents/community/posts/${id}`,
    }),
    trendingPosts: build.query<{ items: CommunityPost[] }, void>({
      query: () => 'api/incidents/community/posts/trending',
      providesTags: ['Post'],
    }),
    communityStats: build.query<CommunityStats, void>({
      query: () => 'api/incidents/community/stats',
      providesTags: ['CommunityStats'],
    }),
    postComments: build.query<{ items: CommunityComment[] }, string>({
      query: (postId) => `api/incidents/community/posts/${postId}/comments`,
      providesTags: (_r, _e, postId) => [{ type: 'Comment', id: postId }],
    }),
    createPost: build.mutation<CommunityPost, NewPost>({
      query: (body) => ({ url: 'api/incidents/community/posts', method: 'POST', body }),
      invalidatesTags: ['Post', 'CommunityStats', 'Points'],
    }),
    createComment: build.mutation<CommunityComment, { postId: string; content: string; parentId?: string | null }>({
      query: ({ postId, ...body }) => ({ url: `api/incidents/community/posts/${postId}/comments`, method: 'POST', body }),
      invalidatesTags: ['CommunityStats', 'Points'],
      async onQueryStarted(_arg, { dispatch, getState, queryFulfilled }) {
        const { data } = await queryFulfilled.catch(() => ({ data: null }));
        if (data) applyNewComment(dispatch, getState as () => RootState, data);
      },
    }),
    toggleLike: build.mutation<LikeResult, string>({
      query: (postId) => ({ url: `api/incidents/community/posts/${postId}/like`, method: 'POST' }),
      async onQueryStarted(_postId, { dispatch, getState, queryFulfilled }) {
        const { data } = await queryFulfilled.catch(() => ({ data: null }));
        if (data)
          patchPost(dispatch, getState as () => RootState, data.postId, (p) => {
            p.likedByMe = data.liked;
            p.likesCount = data.likesCount;
          });
      },
    }),
  }),
});

export const {
  useListPostsInfiniteQuery,
  useTrendingPostsQuery,
  useCommunityStatsQuery,
  usePostCommentsQuery,
  useCreatePostMutation,
  useCreateCommentMutation,
  useToggleLikeMutation,
} = communityApi;

type Dispatch = ThunkDispatch<RootState, unknown, UnknownAction>;

/** Applies a change to one post in every cached list, so every screen shows the same counts. */
export function patchPost(dispatch: Dispatch, getState: () => RootState, postId: string, patch: (p: CommunityPost) => void) {
  for (const entry of communityApi.util.selectInvalidatedBy(getState(), ['Post'])) {
    if (entry.endpointName === 'listPosts') {
      dispatch(
        communityApi.util.updateQueryData('listPosts', entry.originalArgs as PostFilters, (draft) => {
          for (const page of draft.pages) for (const p of page.items) if (p.id === postId) patch(p);
        }),
      );
    } else if (entry.endpointName === 'trendingPosts') {
      dispatch(
        communityApi.util.updateQueryData('trendingPosts', undefined, (draft) => {
          for (const p of draft.items) if (p.id === postId) patch(p);
        }),
      );
    }
  }
}

// A comment or post can reach us twice (our own request's answer and the live event): apply each once.
const seenComments = new Set<string>();
const seenPosts = new Set<string>();

/** Adds a new comment to its post's loaded thread and counts it on the post, once. */
export function applyNewComment(dispatch: Dispatch, getState: () => RootState, comment: CommunityComment) {
  if (seenComments.has(comment.id)) return;
  seenComments.add(comment.id);
  dispatch(
    communityApi.util.updateQueryData('postComments', comment.postId, (draft) => {
      if (!draft.items.some((c) => c.id === comment.id)) draft.items.push(comment);
    }),
  );
  patchPost(dispatch, getState, comment.postId, (p) => {
    p.commentsCount += 1;
  });
}

/** Puts a new post at the top of every cached newest-first list it belongs in, once. */
export function applyNewPost(dispatch: Dispatch, getState: () => RootState, post: CommunityPost) {
  if (seenPosts.has(post.id)) return;
  seenPosts.add(post.id);
  for (const entry of communityApi.util.selectInvalidatedBy(getState(), ['Post'])) {
    if (entry.endpointName !== 'listPosts') continue;
    const f = entry.originalArgs as PostFilters;
    // only where it surely belongs without asking the server: newest first, no search or distance filter
    const fits = f.sort === 'newest' && !f.search.trim() && f.radiusKm >= COMMUNITY_LIMITS.radiusMaxKm && (!f.category || f.category === post.category);
    if (!fits) continue;
    dispatch(
      communityApi.util.updateQueryData('listPosts', f, (draft) => {
        if (!draft.pages.length || draft.pages.some((page) => page.items.some((p) => p.id === post.id))) return;
        draft.pages[0].items.unshift(post);
        for (const page of draft.pages) page.total += 1;
      }),
    );
  }
}

/** Marks a post as already shown (the author's own, refetched after creating it). */
export const markPostSeen = (id: string) => seenPosts.add(id);

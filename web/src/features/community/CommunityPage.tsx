import { useCallback, useEffect, useId, useRef, useState } from 'react';
import toast from 'react-hot-toast';
import {
  COMMUNITY_LIMITS,
  COMMUNITY_MESSAGES,
  POST_CATEGORIES,
  POST_CATEGORY_INFO,
  type CommunityCommentEvent,
  type CommunityPostEvent,
  type PostCategory,
  type PostSort,
} from '@beacon/contracts';
import { useAppDispatch } from '@/app/hooks';
import { useSocketEvent } from '@/app/socket';
import type { RootState } from '@/app/store';
import { Spinner } from '@/common/Spinner';
import { detectLocation } from '@/common/geolocation';
import { applyNewComment, applyNewPost, communityApi, useCommunityStatsQuery, useListPostsInfiniteQuery, type PostFilters } from './community.api';
import { CommunitySidebar } from './CommunitySidebar';
import { CreatePostModal } from './CreatePostModal';
import { PostCard } from './PostCard';
import './community.css';

const SORT_LABELS: Record<PostSort, string> = { newest: 'Newest', likes: 'Most Liked', comments: 'Most Comments' };

/** The Community Forum at /dashboard/community. */
export function CommunityPage() {
  const [creating, setCreating] = useState(false);
  const [filters, setFilters] = useState<PostFilters>({ category: '', search: '', sort: 'newest', radiusKm: COMMUNITY_LIMITS.radiusMaxKm, near: null });
  const { data: stats } = useCommunityStatsQuery();
  useLiveCommunity();

  return (
    <div className="page community-page">
      <header className="page-header">
        <div>
          <h1>Community Forum</h1>
          <p className="muted">
            {stats
              ? `${stats.members.toLocaleString('en-US')} members · ${stats.postsThisWeek.toLocaleString('en-US')} posts this week`
              : 'Share and learn what is happening on your roads'}
          </p>
        </div>
        <button type="button" className="btn btn-primary" onClick={() => setCreating(true)}>
          + New Post
        </button>
      </header>
      <div className="community-layout">
        <FilterPanel filters={filters} onChange={setFilters} />
        <PostList filters={filters} />
        <CommunitySidebar />
      </div>
      <button type="button" className="fab mobile-only" aria-label="Create post" onClick={() => setCreating(true)}>
        +
      </button>
      {creating && <CreatePostModal onClose={() => setCreating(false)} />}
    </div>
  );
}

/** New posts and comments from everyone, written into the cache as they arrive. */
function useLiveCommunity() {
  const dispatch = useAppDispatch();
  const onPost = useCallback(
    (event: CommunityPostEvent) => {
      // the event is a summary: fetch the post (with my like flag) before showing it
      void dispatch(async (d, get) => {
        const result = await d(communityApi.endpoints.getPost.initiate(event.id, { subscribe: false, forceRefetch: true }));
        if (result.data) applyNewPost(d, get as () => RootState, result.data);
        d(communityApi.util.invalidateTags(['CommunityStats']));
      });
    },
    [dispatch],
  );
  const onComment = useCallback(
    (event: CommunityCommentEvent) => {
      void dispatch(async (d, get) => {
        applyNewComment(d, get as () => RootState, { ...event, likesCount: 0, mine: false });
        d(communityApi.util.invalidateTags(['CommunityStats']));
      });
    },
    [dispatch],
  );
  useSocketEvent('community:post', onPost);
  useSocketEvent('community:comment', onComment);
}

function FilterPanel({ filters, onChange }: { filters: PostFilters; onChange: (f: PostFilters) => void }) {
  const id = useId();
  const [open, setOpen] = useState(false);
  const [search, setSearch] = useState(filters.search);
  const [locating, setLocating] = useState(false);
  const latest = useRef(filters);
  latest.current = filters;

  // typing settles for 300 ms before the list reloads
  useEffect(() => {
    const t = setTimeout(() => {
      if (search !== latest.current.search) onChange({ ...latest.current, search });
    }, 300);
    return () => clearTimeout(t);
  }, [search, onChange]);

  const setRadius = async (radiusKm: number) => {
    onChange({ ...latest.current, radiusKm });
    if (radiusKm < COMMUNITY_LIMITS.radiusMaxKm && !latest.current.near && !locating) {
      setLocating(true);
      const near = await detectLocation();
      setLocating(false);
      if (near) onChange({ ...latest.current, near });
    }
  };

  const filtering = filters.radiusKm < COMMUNITY_LIMITS.radiusMaxKm;
  return (
    <aside className="filter-panel" aria-label="Filters">
      <button
        type="button"
        className="btn btn-outline btn-block filter-toggle"
        aria-expanded={open}
        aria-controls={`${id}-panel`}
        onClick={() => setOpen((o) => !o)}
      >
        {open ? 'Hide Filters' : 'Show Filters'}
      </button>
      <div id={`${id}-panel`} className={`card filter-body ${open ? 'open' : ''}`}>
        <h2 className="filter-title">Filters</h2>
        <div className="field">
          <label htmlFor={`${id}-search`}>Search posts</label>
          <input
            id={`${id}-search`}
            type="search"
            value={search}
            placeholder="Title or description"
            maxLength={100}
            onChange={(e) => setSearch(e.target.value)}
          />
        </div>
        <div className="field">
          <label htmlFor={`${id}-category`}>Category</label>
          <select id={`${id}-category`} value={filters.category} onChange={(e) => onChange({ ...filters, category: e.target.value as PostCategory | '' })}>
            <option value="">All Categories</option>
            {POST_CATEGORIES.map((c) => (
              <option key={c} value={c}>
                {POST_CATEGORY_INFO[c].label}
              </option>
            ))}
          </select>
        </div>
        <div className="field">
          <label htmlFor={`${id}-sort`}>Sort by</label>
          <select id={`${id}-sort`} value={filters.sort} onChange={(e) => onChange({ ...filters, sort: e.target.value as PostSort })}>
            {(Object.keys(SORT_LABELS) as PostSort[]).map((s) => (
              <option key={s} value={s}>
                {SORT_LABELS[s]}
              </option>
            ))}
          </select>
        </div>
        <div className="field">
          <label htmlFor={`${id}-radius`}>Radius</label>
          <input
            id={`${id}-radius`}
            type="range"
            min={COMMUNITY_LIMITS.radiusMinKm}
            max={COMMUNITY_LIMITS.radiusMaxKm}
            step={1}
            value={filters.radiusKm}
            aria-valuetext={filtering ? `Within ${filters.radiusKm} km` : 'Any distance'}
            onChange={(e) => void setRadius(Number(e.target.value))}
          />
          <span className="muted small" aria-live="polite">
            {filtering ? `Within ${filters.radiusKm} km` : 'Any distance'}
            {filtering && locating && ' (finding your location...)'}
            {filtering && !locating && !filters.near && ' (needs your location: allow it to filter by distance)'}
          </span>
        </div>
      </div>
    </aside>
  );
}

function PostList({ filters }: { filters: PostFilters }) {
  const { data, isLoading, isFetching, isError, hasNextPage, fetchNextPage, isFetchingNextPage } = useListPostsInfiniteQuery(filters);
  const posts = data?.pages.flatMap((p) => p.items) ?? [];
  const total = data?.pages[data.pages.length - 1]?.total ?? 0;

  useEffect(() => {
    if (isError) toast.error(COMMUNITY_MESSAGES.loadFailed);
  }, [isError]);

  return (
    <section className="post-list stack" aria-label="Posts" aria-busy={isFetching}>
      {isLoading && (
        <div className="center">
          <Spinner label="Loading posts" />
        </div>
      )}
      {isError && !posts.length && <p className="empty-state">{COMMUNITY_MESSAGES.loadFailed}</p>}
      {data && !posts.length && !isError && (
        <div className="empty-state card">
          <p>
            <strong>No posts found</strong>
          </p>
          <p>Try other filters, or be the first to share something.</p>
        </div>
      )}
      {posts.map((post) => (
        <PostCard key={post.id} post={post} />
      ))}
      {posts.length > 0 && (
        <p className="muted small center">
          Showing {posts.length} of {total} posts
        </p>
      )}
      {hasNextPage && (
        <button type="button" className="btn btn-outline btn-block" onClick={() => void fetchNextPage()} disabled={isFetchingNextPage}>
          {isFetchingNextPage ? 'Loading...' : 'Load More Posts'}
        </button>
      )}
    </section>
  );
}

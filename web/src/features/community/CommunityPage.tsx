import { useCallback, useEffect, useId, useRef, useState } from 'react';
import { FormattedMessage, useIntl, type IntlShape } from 'react-intl';
import toast from 'react-hot-toast';
import { Plus } from 'lucide-react';
import { COMMUNITY_LIMITS, POST_CATEGORIES, type CommunityCommentEvent, type CommunityPostEvent, type PostCategory, type PostSort } from '@beacon/contracts';
import { useAppDispatch } from '@/app/hooks';
import { useSocketEvent } from '@/app/socket';
import type { RootState } from '@/app/store';
import { Spinner } from '@/common/Spinner';
import { detectLocation } from '@/common/geolocation';
import { defineMessages } from '@/i18n';
import { applyNewComment, applyNewPost, communityApi, useCommunityStatsQuery, useListPostsInfiniteQuery, type PostFilters } from './community.api';
import { CommunitySidebar } from './CommunitySidebar';
import { CreatePostModal } from './CreatePostModal';
import { communityText, postCategoryName } from './labels';
import { PostCard } from './PostCard';
import './community.css';

const SORT_LABELS = defineMessages({
  newest: { id: 'community.filters.sortNewest', defaultMessage: 'Newest' },
  likes: { id: 'community.filters.sortLikes', defaultMessage: 'Most Liked' },
  comments: { id: 'community.filters.sortComments', defaultMessage: 'Most Comments' },
}) satisfies Record<PostSort, unknown>;

/** The header's counts: '1,247 members · 89 posts this week'. */
function statsLine(stats: { members: number; postsThisWeek: number }, intl: IntlShape): string {
  const members = intl.formatMessage(
    { id: 'community.header.members', defaultMessage: '{count, plural, one {# member} other {# members}}' },
    { count: stats.members },
  );
  const posts = intl.formatMessage(
    { id: 'community.header.postsThisWeek', defaultMessage: '{count, plural, one {# post this week} other {# posts this week}}' },
    { count: stats.postsThisWeek },
  );
  return intl.formatMessage({ id: 'community.header.stats', defaultMessage: '{members} · {posts}' }, { members, posts });
}

/** The Community Forum at /dashboard/community. */
export function CommunityPage() {
  const intl = useIntl();
  const [creating, setCreating] = useState(false);
  const [filters, setFilters] = useState<PostFilters>({ category: '', search: '', sort: 'newest', radiusKm: COMMUNITY_LIMITS.radiusMaxKm, near: null });
  const { data: stats } = useCommunityStatsQuery();
  useLiveCommunity();

  return (
    <div className="page community-page">
      <header className="page-header">
        <div>
          <h1>
            <FormattedMessage id="community.header.title" defaultMessage="Community Forum" />
          </h1>
          <p className="muted">
            {stats ? (
              statsLine(stats, intl)
            ) : (
              <FormattedMessage id="community.header.tagline" defaultMessage="Share and learn what is happening on your roads" />
            )}
          </p>
        </div>
        <button type="button" className="btn btn-primary" onClick={() => setCreating(true)}>
          <FormattedMessage id="community.header.newPost" defaultMessage="+ New Post" />
        </button>
      </header>
      <div className="community-layout">
        <FilterPanel filters={filters} onChange={setFilters} />
        <PostList filters={filters} />
        <CommunitySidebar />
      </div>
      <button
        type="button"
        className="fab mobile-only"
        aria-label={intl.formatMessage({ id: 'community.header.createPost', defaultMessage: 'Create post' })}
        onClick={() => setCreating(true)}
      >
        <Plus aria-hidden="true" size={28} />
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
  const intl = useIntl();
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
  // kilometres, as the slider steps and the server's filter count them
  const distance = intl.formatNumber(filters.radiusKm, { style: 'unit', unit: 'kilometer' });
  const radiusText = filtering
    ? intl.formatMessage({ id: 'community.filters.within', defaultMessage: 'Within {distance}' }, { distance })
    : intl.formatMessage({ id: 'community.filters.anyDistance', defaultMessage: 'Any distance' });
  return (
    <aside className="filter-panel" aria-label={intl.formatMessage({ id: 'community.filters.title', defaultMessage: 'Filters' })}>
      <button
        type="button"
        className="btn btn-outline btn-block filter-toggle"
        aria-expanded={open}
        aria-controls={`${id}-panel`}
        onClick={() => setOpen((o) => !o)}
      >
        {open ? (
          <FormattedMessage id="community.filters.hide" defaultMessage="Hide Filters" />
        ) : (
          <FormattedMessage id="community.filters.show" defaultMessage="Show Filters" />
        )}
      </button>
      <div id={`${id}-panel`} className={`card filter-body ${open ? 'open' : ''}`}>
        <h2 className="filter-title">
          <FormattedMessage id="community.filters.title" defaultMessage="Filters" />
        </h2>
        <div className="field">
          <label htmlFor={`${id}-search`}>
            <FormattedMessage id="community.filters.search" defaultMessage="Search posts" />
          </label>
          <input
            id={`${id}-search`}
            type="search"
            value={search}
            placeholder={intl.formatMessage({ id: 'community.filters.searchPlaceholder', defaultMessage: 'Title or description' })}
            maxLength={100}
            onChange={(e) => setSearch(e.target.value)}
          />
        </div>
        <div className="field">
          <label htmlFor={`${id}-category`}>
            <FormattedMessage id="community.filters.category" defaultMessage="Category" />
          </label>
          <select id={`${id}-category`} value={filters.category} onChange={(e) => onChange({ ...filters, category: e.target.value as PostCategory | '' })}>
            <option value="">{intl.formatMessage({ id: 'community.filters.allCategories', defaultMessage: 'All Categories' })}</option>
            {POST_CATEGORIES.map((c) => (
              <option key={c} value={c}>
                {postCategoryName(c, intl)}
              </option>
            ))}
          </select>
        </div>
        <div className="field">
          <label htmlFor={`${id}-sort`}>
            <FormattedMessage id="community.filters.sort" defaultMessage="Sort by" />
          </label>
          <select id={`${id}-sort`} value={filters.sort} onChange={(e) => onChange({ ...filters, sort: e.target.value as PostSort })}>
            {(Object.keys(SORT_LABELS) as PostSort[]).map((s) => (
              <option key={s} value={s}>
                {intl.formatMessage(SORT_LABELS[s])}
              </option>
            ))}
          </select>
        </div>
        <div className="field">
          <label htmlFor={`${id}-radius`}>
            <FormattedMessage id="community.filters.radius" defaultMessage="Radius" />
          </label>
          <input
            id={`${id}-radius`}
            type="range"
            min={COMMUNITY_LIMITS.radiusMinKm}
            max={COMMUNITY_LIMITS.radiusMaxKm}
            step={1}
            value={filters.radiusKm}
            aria-valuetext={radiusText}
            onChange={(e) => void setRadius(Number(e.target.value))}
          />
          <span className="muted small" aria-live="polite">
            {!filtering || filters.near ? (
              radiusText
            ) : locating ? (
              <FormattedMessage id="community.filters.withinLocating" defaultMessage="Within {distance} (finding your location...)" values={{ distance }} />
            ) : (
              <FormattedMessage
                id="community.filters.withinNeedsLocation"
                defaultMessage="Within {distance} (needs your location: allow it to filter by distance)"
                values={{ distance }}
              />
            )}
          </span>
        </div>
      </div>
    </aside>
  );
}

function PostList({ filters }: { filters: PostFilters }) {
  const intl = useIntl();
  const { data, isLoading, isFetching, isError, hasNextPage, fetchNextPage, isFetchingNextPage } = useListPostsInfiniteQuery(filters);
  const posts = data?.pages.flatMap((p) => p.items) ?? [];
  const total = data?.pages[data.pages.length - 1]?.total ?? 0;

  useEffect(() => {
    if (isError) toast.error(communityText('loadFailed'));
  }, [isError]);

  return (
    <section className="post-list stack" aria-label={intl.formatMessage({ id: 'community.posts.label', defaultMessage: 'Posts' })} aria-busy={isFetching}>
      {isLoading && (
        <div className="center">
          <Spinner label={intl.formatMessage({ id: 'community.posts.loading', defaultMessage: 'Loading posts' })} />
        </div>
      )}
      {isError && !posts.length && <p className="empty-state">{communityText('loadFailed', intl)}</p>}
      {data && !posts.length && !isError && (
        <div className="empty-state card">
          <p>
            <strong>
              <FormattedMessage id="community.posts.empty" defaultMessage="No posts found" />
            </strong>
          </p>
          <p>
            <FormattedMessage id="community.posts.emptyHint" defaultMessage="Try other filters, or be the first to share something." />
          </p>
        </div>
      )}
      {posts.map((post) => (
        <PostCard key={post.id} post={post} />
      ))}
      {posts.length > 0 && (
        <p className="muted small center">
          <FormattedMessage
            id="community.posts.showing"
            defaultMessage="Showing {shown, number} of {total, plural, one {# post} other {# posts}}"
            values={{ shown: posts.length, total }}
          />
        </p>
      )}
      {hasNextPage && (
        <button type="button" className="btn btn-outline btn-block" onClick={() => void fetchNextPage()} disabled={isFetchingNextPage}>
          {isFetchingNextPage ? (
            <FormattedMessage id="community.posts.loadingMore" defaultMessage="Loading..." />
          ) : (
            <FormattedMessage id="community.posts.loadMore" defaultMessage="Load More Posts" />
          )}
        </button>
      )}
    </section>
  );
}

import { LEVELS, postCategoryLabel } from '@beacon/contracts';
import { Spinner } from '@/common/Spinner';
import { useGetMyPointsQuery } from '@/common/points.api';
import { useCommunityStatsQuery, useTrendingPostsQuery } from './community.api';

const TIPS = [
  'Report what you saw, where and when: time and direction help most.',
  'Call 911 first in an emergency; post here afterwards.',
  'Keep it factual and kind. No personal details or plates of private people.',
  'Photos help, but never take them while driving.',
];

/** Right column: the user's points and level, trending posts, community stats and tips. */
export function CommunitySidebar() {
  return (
    <aside className="community-sidebar stack" aria-label="Community sidebar">
      <PointsCard />
      <TrendingCard />
      <StatsCard />
      <section className="card" aria-labelledby="community-tips">
        <h2 id="community-tips">Community Tips</h2>
        <ul className="tips">
          {TIPS.map((t) => (
            <li key={t}>{t}</li>
          ))}
        </ul>
      </section>
    </aside>
  );
}

function PointsCard() {
  const { data, isLoading } = useGetMyPointsQuery();
  const newMember = !data || data.hasRecord === false;
  const nextLevel = data && LEVELS.find((l) => l.level === data.level + 1);
  return (
    <section className="card" aria-labelledby="your-points">
      <h2 id="your-points">Your Points</h2>
      {isLoading ? (
        <Spinner size="sm" label="Loading your points" />
      ) : (
        <div className="stack points-card">
          <p className="points-total" data-testid="my-points">
            <strong>{data?.points ?? 0}</strong> points
          </p>
          <p className="badge" data-testid="my-level">
            {newMember ? 'New Member' : `Level ${data!.level} · ${data!.levelName}`}
          </p>
          {newMember && <p className="muted small">Welcome to the community! Share a post or a comment to earn your first points.</p>}
          {data && data.nextLevelAt !== null && (
            <>
              <div
                className="progress"
                role="progressbar"
                aria-label="Progress to next level"
                aria-valuemin={0}
                aria-valuemax={100}
                aria-valuenow={Math.round(data.progress)}
              >
                <div className="progress-bar" style={{ width: `${Math.round(data.progress)}%` }} />
              </div>
              <p className="muted small">
                {data.nextLevelAt - data.points} points to Level {data.level + 1}
                {nextLevel ? ` (${nextLevel.name})` : ''}
              </p>
            </>
          )}
          {data && data.nextLevelAt === null && <p className="muted small">Top level reached. Thank you!</p>}
          <p className="muted small">5 points per post, 2 per comment, 1 per like you receive.</p>
        </div>
      )}
    </section>
  );
}

function TrendingCard() {
  const { data, isLoading } = useTrendingPostsQuery();
  return (
    <section className="card" aria-labelledby="trending-posts">
      <h2 id="trending-posts">Trending Posts</h2>
      {isLoading && <Spinner size="sm" label="Loading trending posts" />}
      {data && !data.items.length && <p className="muted small">No trending posts this week.</p>}
      {data && data.items.length > 0 && (
        <ol className="trending">
          {data.items.map((p) => (
            <li key={p.id}>
              <span className="user-text">{p.title}</span>
              <span className="muted small">
                {' '}
                · {postCategoryLabel(p.category)} · {p.likesCount} {p.likesCount === 1 ? 'like' : 'likes'}
              </span>
            </li>
          ))}
        </ol>
      )}
    </section>
  );
}

function StatsCard() {
  const { data } = useCommunityStatsQuery();
  return (
    <section className="card" aria-labelledby="community-stats">
      <h2 id="community-stats">Community Stats</h2>
      <dl className="stats">
        <div>
          <dt>Members</dt>
          <dd>{data ? data.members.toLocaleString('en-US') : '–'}</dd>
        </div>
        <div>
          <dt>Posts this week</dt>
          <dd>{data ? data.postsThisWeek.toLocaleString('en-US') : '–'}</dd>
        </div>
        <div>
          <dt>Comments today</dt>
          <dd>{data ? data.commentsToday.toLocaleString('en-US') : '–'}</dd>
        </div>
      </dl>
    </section>
  );
}

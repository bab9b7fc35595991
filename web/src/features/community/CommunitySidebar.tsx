import { FormattedMessage, useIntl } from 'react-intl';
import { POINTS } from '@beacon/contracts';
import { Spinner } from '@/common/Spinner';
import { useGetMyPointsQuery } from '@/common/points.api';
import { defineMessages } from '@/i18n';
import { useCommunityStatsQuery, useTrendingPostsQuery } from './community.api';
import { levelBadge, levelName, postCategoryName } from './labels';

const TIPS = defineMessages({
  what: { id: 'community.tips.whatWhereWhen', defaultMessage: 'Report what you saw, where and when: time and direction help most.' },
  emergency: { id: 'community.tips.emergency', defaultMessage: 'Call 911 first in an emergency; post here afterwards.' },
  kind: { id: 'community.tips.kind', defaultMessage: 'Keep it factual and kind. No personal details or plates of private people.' },
  photos: { id: 'community.tips.photos', defaultMessage: 'Photos help, but never take them while driving.' },
});

/** Right column: the user's points and level, trending posts, community stats and tips. */
export function CommunitySidebar() {
  const intl = useIntl();
  return (
    <aside className="community-sidebar stack" aria-label={intl.formatMessage({ id: 'community.sidebar.label', defaultMessage: 'Community sidebar' })}>
      <PointsCard />
      <TrendingCard />
      <StatsCard />
      <section className="card" aria-labelledby="community-tips">
        <h2 id="community-tips">
          <FormattedMessage id="community.tips.title" defaultMessage="Community Tips" />
        </h2>
        <ul className="tips">
          {Object.entries(TIPS).map(([key, tip]) => (
            <li key={key}>{intl.formatMessage(tip)}</li>
          ))}
        </ul>
      </section>
    </aside>
  );
}

function PointsCard() {
  const intl = useIntl();
  const { data, isLoading } = useGetMyPointsQuery();
  const newMember = !data || data.hasRecord === false;
  return (
    <section className="card" aria-labelledby="your-points">
      <h2 id="your-points">
        <FormattedMessage id="community.points.title" defaultMessage="Your Points" />
      </h2>
      {isLoading ? (
        <Spinner size="sm" label={intl.formatMessage({ id: 'community.points.loading', defaultMessage: 'Loading your points' })} />
      ) : (
        <div className="stack points-card">
          <p className="points-total" data-testid="my-points">
            <FormattedMessage
              id="community.points.total"
              defaultMessage="{count, plural, one {<strong>#</strong> point} other {<strong>#</strong> points}}"
              values={{ count: data?.points ?? 0, strong: (chunks) => <strong>{chunks}</strong> }}
            />
          </p>
          <p className="badge" data-testid="my-level">
            {levelBadge(newMember ? { level: 1, hasRecord: false } : data!, intl)}
          </p>
          {newMember && (
            <p className="muted small">
              <FormattedMessage id="community.points.welcome" defaultMessage="Welcome to the community! Share a post or a comment to earn your first points." />
            </p>
          )}
          {data && data.nextLevelAt !== null && (
            <>
              <div
                className="progress"
                role="progressbar"
                aria-label={intl.formatMessage({ id: 'community.points.progress', defaultMessage: 'Progress to next level' })}
                aria-valuemin={0}
                aria-valuemax={100}
                aria-valuenow={Math.round(data.progress)}
              >
                <div className="progress-bar" style={{ width: `${Math.round(data.progress)}%` }} />
              </div>
              <p className="muted small">
                <FormattedMessage
                  id="community.points.toNextLevel"
                  defaultMessage="{count, plural, one {# point} other {# points}} to Level {level} ({name})"
                  values={{ count: data.nextLevelAt - data.points, level: data.level + 1, name: levelName(data.level + 1, intl) }}
                />
              </p>
            </>
          )}
          {data && data.nextLevelAt === null && (
            <p className="muted small">
              <FormattedMessage id="community.points.topLevel" defaultMessage="Top level reached. Thank you!" />
            </p>
          )}
          <p className="muted small">
            <FormattedMessage
              id="community.points.rules"
              defaultMessage="{post} points per post, {comment} per comment, {like} per like you receive."
              values={{ post: POINTS.post, comment: POINTS.comment, like: POINTS.likeReceived }}
            />
          </p>
        </div>
      )}
    </section>
  );
}

function TrendingCard() {
  const intl = useIntl();
  const { data, isLoading } = useTrendingPostsQuery();
  return (
    <section className="card" aria-labelledby="trending-posts">
      <h2 id="trending-posts">
        <FormattedMessage id="community.trending.title" defaultMessage="Trending Posts" />
      </h2>
      {isLoading && <Spinner size="sm" label={intl.formatMessage({ id: 'community.trending.loading', defaultMessage: 'Loading trending posts' })} />}
      {data && !data.items.length && (
        <p className="muted small">
          <FormattedMessage id="community.trending.empty" defaultMessage="No trending posts this week." />
        </p>
      )}
      {data && data.items.length > 0 && (
        <ol className="trending">
          {data.items.map((p) => (
            <li key={p.id}>
              <FormattedMessage
                id="community.trending.item"
                defaultMessage="{title} <meta>· {category} · {count, plural, one {# like} other {# likes}}</meta>"
                values={{
                  title: <span className="user-text">{p.title}</span>,
                  category: postCategoryName(p.category, intl),
                  count: p.likesCount,
                  meta: (chunks) => <span className="muted small">{chunks}</span>,
                }}
              />
            </li>
          ))}
        </ol>
      )}
    </section>
  );
}

function StatsCard() {
  const intl = useIntl();
  const { data } = useCommunityStatsQuery();
  const count = (n: number | undefined) =>
    n === undefined ? intl.formatMessage({ id: 'community.stats.unknown', defaultMessage: '–' }) : intl.formatNumber(n);
  return (
    <section className="card" aria-labelledby="community-stats">
      <h2 id="community-stats">
        <FormattedMessage id="community.stats.title" defaultMessage="Community Stats" />
      </h2>
      <dl className="stats">
        <div>
          <dt>
            <FormattedMessage id="community.stats.members" defaultMessage="Members" />
          </dt>
          <dd>{count(data?.members)}</dd>
        </div>
        <div>
          <dt>
            <FormattedMessage id="community.stats.postsThisWeek" defaultMessage="Posts this week" />
          </dt>
          <dd>{count(data?.postsThisWeek)}</dd>
        </div>
        <div>
          <dt>
            <FormattedMessage id="community.stats.commentsToday" defaultMessage="Comments today" />
          </dt>
          <dd>{count(data?.commentsToday)}</dd>
        </div>
      </dl>
    </section>
  );
}

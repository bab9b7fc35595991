import { useId, useState } from 'react';
import { FormattedMessage, useIntl } from 'react-intl';
import toast from 'react-hot-toast';
import type { CommunityPost } from '@beacon/contracts';
import type { ApiError } from '@/app/api';
import { relativeAge } from '@/common/time';
import { useToggleLikeMutation } from './community.api';
import { Comments } from './Comments';
import { communityText, postCategoryName } from './labels';
import { excerpt } from './post-form';
import { Heart, MapPin, MessageCircle } from 'lucide-react';
import { CategoryIcon, POST_CATEGORY_ICONS } from '@/common/icons';

/** One post in the list: text cut at 200 characters, likes that toggle, comments on demand. User text stays text. */
export function PostCard({ post }: { post: CommunityPost }) {
  const id = useId();
  const intl = useIntl();
  const [expanded, setExpanded] = useState(false);
  const [showComments, setShowComments] = useState(false);
  const [toggleLike, { isLoading: liking }] = useToggleLikeMutation();
  const short = excerpt(post.description);

  const like = async () => {
    try {
      await toggleLike(post.id).unwrap();
    } catch (err) {
      const e = err as ApiError;
      toast.error(
        e.statusCode === 401
          ? communityText('signInToLike')
          : e.code === 'rate_limited'
            ? e.message // it says when to try again
            : communityText('likeFailed'),
      );
    }
  };

  return (
    <article className="card post-card" aria-labelledby={`${id}-title`}>
      <div className="row-between">
        <span className={`badge category-${post.category}`}>
          <CategoryIcon icon={POST_CATEGORY_ICONS[post.category]} /> {postCategoryName(post.category, intl)}
        </span>
        <time className="muted small" dateTime={post.createdAt}>
          {relativeAge(post.createdAt, undefined, intl)}
        </time>
      </div>
      <h3 id={`${id}-title`} className="post-title user-text">
        {post.title}
      </h3>
      <p className="muted small post-meta">
        <PostAuthor mine={post.mine} place={post.locationName} />
      </p>
      <p className="user-text post-text" id={`${id}-text`}>
        {expanded ? post.description : short.text}
      </p>
      {short.cut && (
        <button type="button" className="btn btn-ghost btn-sm" aria-expanded={expanded} aria-controls={`${id}-text`} onClick={() => setExpanded((e) => !e)}>
          {expanded ? (
            <FormattedMessage id="community.post.showLess" defaultMessage="Show less" />
          ) : (
            <FormattedMessage id="community.post.readMore" defaultMessage="Read more" />
          )}
        </button>
      )}
      {post.imageUrl && (
        <img
          className="post-image"
          src={post.imageUrl}
          alt={intl.formatMessage({ id: 'community.post.imageAlt', defaultMessage: 'Photo for: {title}' }, { title: post.title })}
          loading="lazy"
        />
      )}
      <div className="row post-actions">
        <button
          type="button"
          className={`btn btn-sm ${post.likedByMe ? 'btn-liked' : 'btn-outline'}`}
          aria-pressed={post.likedByMe}
          disabled={liking}
          onClick={like}
        >
          <Heart aria-hidden="true" size={16} fill={post.likedByMe ? 'currentColor' : 'none'} />
          <FormattedMessage id="community.post.like" defaultMessage="Like ({count, number})" values={{ count: post.likesCount }} />
        </button>
        <button
          type="button"
          className="btn btn-outline btn-sm"
          aria-expanded={showComments}
          aria-controls={`${id}-comments`}
          onClick={() => setShowComments((s) => !s)}
        >
          <MessageCircle aria-hidden="true" size={16} />
          <FormattedMessage id="community.post.comments" defaultMessage="Comments ({count, number})" values={{ count: post.commentsCount }} />
        </button>
      </div>
      <div id={`${id}-comments`}>{showComments && <Comments postId={post.id} title={post.title} />}</div>
    </article>
  );
}

/** 'by You' or 'by Community member' (authors are not named), and where the post is about when it says. */
function PostAuthor({ mine, place }: { mine: boolean; place: string | null }) {
  const intl = useIntl();
  const author = intl.formatMessage(
    { id: 'community.post.author', defaultMessage: '{who, select, me {by You} other {by Community member}}' },
    { who: mine ? 'me' : 'other' },
  );
  if (!place) return author;
  return (
    <FormattedMessage
      id="community.post.authorAndPlace"
      defaultMessage="{author} · <place>{name}</place>"
      values={{
        author,
        name: place,
        place: (chunks) => (
          <span className="post-place">
            <MapPin aria-hidden="true" size={14} /> <span className="user-text">{chunks}</span>
          </span>
        ),
      }}
    />
  );
}

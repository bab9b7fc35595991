import { useId, useState } from 'react';
import toast from 'react-hot-toast';
import { COMMUNITY_MESSAGES, postCategoryLabel, type CommunityPost } from '@beacon/contracts';
import type { ApiError } from '@/app/api';
import { relativeAge } from '@/common/time';
import { useToggleLikeMutation } from './community.api';
import { Comments } from './Comments';
import { excerpt } from './post-form';
import { Heart, MapPin, MessageCircle } from 'lucide-react';
import { CategoryIcon, POST_CATEGORY_ICONS } from '@/common/icons';

/** One post in the list: text cut at 200 characters, likes that toggle, comments on demand. User text stays text. */
export function PostCard({ post }: { post: CommunityPost }) {
  const id = useId();
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
          ? COMMUNITY_MESSAGES.signInToLike
          : e.code === 'rate_limited'
            ? e.message // it says when to try again
            : COMMUNITY_MESSAGES.likeFailed,
      );
    }
  };

  return (
    <article className="card post-card" aria-labelledby={`${id}-title`}>
      <div className="row-between">
        <span className={`badge category-${post.category}`}>
          <CategoryIcon icon={POST_CATEGORY_ICONS[post.category]} /> {postCategoryLabel(post.category)}
        </span>
        <time className="muted small" dateTime={post.createdAt}>
          {relativeAge(post.createdAt)}
        </time>
      </div>
      <h3 id={`${id}-title`} className="post-title user-text">
        {post.title}
      </h3>
      <p className="muted small post-meta">
        by {post.mine ? 'You' : 'Community member'}
        {post.locationName && (
          <>
            {' '}
            · <MapPin aria-hidden="true" size={14} /> <span className="user-text">{post.locationName}</span>
          </>
        )}
      </p>
      <p className="user-text post-text" id={`${id}-text`}>
        {expanded ? post.description : short.text}
      </p>
      {short.cut && (
        <button type="button" className="btn btn-ghost btn-sm" aria-expanded={expanded} aria-controls={`${id}-text`} onClick={() => setExpanded((e) => !e)}>
          {expanded ? 'Show less' : 'Read more'}
        </button>
      )}
      {post.imageUrl && <img className="post-image" src={post.imageUrl} alt={`Photo for: ${post.title}`} loading="lazy" />}
      <div className="row post-actions">
        <button
          type="button"
          className={`btn btn-sm ${post.likedByMe ? 'btn-liked' : 'btn-outline'}`}
          aria-pressed={post.likedByMe}
          disabled={liking}
          onClick={like}
        >
          <Heart aria-hidden="true" size={16} fill={post.likedByMe ? 'currentColor' : 'none'} /> Like ({post.likesCount})
        </button>
        <button
          type="button"
          className="btn btn-outline btn-sm"
          aria-expanded={showComments}
          aria-controls={`${id}-comments`}
          onClick={() => setShowComments((s) => !s)}
        >
          <MessageCircle aria-hidden="true" size={16} /> Comments ({post.commentsCount})
        </button>
      </div>
      <div id={`${id}-comments`}>{showComments && <Comments postId={post.id} title={post.title} />}</div>
    </article>
  );
}

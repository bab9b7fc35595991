import { useId, useMemo, useState, type FormEvent } from 'react';
import { FormattedMessage, useIntl } from 'react-intl';
import toast from 'react-hot-toast';
import { COMMUNITY_LIMITS, type CommunityComment } from '@beacon/contracts';
import type { ApiError } from '@/app/api';
import { Spinner } from '@/common/Spinner';
import { relativeAge } from '@/common/time';
import { useCreateCommentMutation, usePostCommentsQuery } from './community.api';
import { communityText } from './labels';

interface Node extends CommunityComment {
  replies: Node[];
}

/** Flat comments (oldest first) to a tree of replies. */
export function threadOf(comments: CommunityComment[]): Node[] {
  const byId = new Map<string, Node>(comments.map((c) => [c.id, { ...c, replies: [] }]));
  const roots: Node[] = [];
  for (const node of byId.values()) {
    const parent = node.parentId ? byId.get(node.parentId) : undefined;
    (parent ? parent.replies : roots).push(node);
  }
  return roots;
}

/** A post's comments with nested replies and the forms to add to them. */
export function Comments({ postId, title }: { postId: string; title: string }) {
  const intl = useIntl();
  const { data, isLoading, isError } = usePostCommentsQuery(postId);
  const thread = useMemo(() => threadOf(data?.items ?? []), [data]);
  return (
    <section className="comments" aria-label={intl.formatMessage({ id: 'community.comments.label', defaultMessage: 'Comments on {title}' }, { title })}>
      {isLoading && <Spinner size="sm" label={intl.formatMessage({ id: 'community.comments.loading', defaultMessage: 'Loading comments' })} />}
      {isError && (
        <p className="muted small">
          <FormattedMessage id="community.comments.loadFailed" defaultMessage="Comments could not be loaded." />
        </p>
      )}
      {data && !thread.length && (
        <p className="muted small">
          <FormattedMessage id="community.comments.empty" defaultMessage="No comments yet. Start the conversation." />
        </p>
      )}
      {thread.length > 0 && (
        <ul className="comment-list" aria-label={intl.formatMessage({ id: 'community.comments.list', defaultMessage: 'Comments' })}>
          {thread.map((c) => (
            <CommentItem key={c.id} comment={c} postId={postId} />
          ))}
        </ul>
      )}
      <CommentForm
        postId={postId}
        label={intl.formatMessage({ id: 'community.comments.add', defaultMessage: 'Add a comment' })}
        submitLabel={intl.formatMessage({ id: 'community.comments.submit', defaultMessage: 'Post Comment' })}
      />
    </section>
  );
}

function CommentItem({ comment, postId }: { comment: Node; postId: string }) {
  const intl = useIntl();
  const [replying, setReplying] = useState(false);
  return (
    <li className="comment">
      <div className="comment-meta small muted">
        <FormattedMessage
          id="community.comments.meta"
          defaultMessage="<author>{who, select, me {You} other {Community member}}</author> · {age}"
          values={{
            who: comment.mine ? 'me' : 'other',
            author: (chunks) => <strong>{chunks}</strong>,
            age: <time dateTime={comment.createdAt}>{relativeAge(comment.createdAt, undefined, intl)}</time>,
          }}
        />
      </div>
      <p className="user-text comment-text">{comment.content}</p>
      <button type="button" className="btn btn-ghost btn-sm" aria-expanded={replying} onClick={() => setReplying((r) => !r)}>
        {replying ? (
          <FormattedMessage id="community.comments.cancelReply" defaultMessage="Cancel reply" />
        ) : (
          <FormattedMessage id="community.comments.reply" defaultMessage="Reply" />
        )}
      </button>
      {replying && (
        <CommentForm
          postId={postId}
          parentId={comment.id}
          label={intl.formatMessage({ id: 'community.comments.reply', defaultMessage: 'Reply' })}
          submitLabel={intl.formatMessage({ id: 'community.comments.submitReply', defaultMessage: 'Post Reply' })}
          onDone={() => setReplying(false)}
        />
      )}
      {comment.replies.length > 0 && (
        <ul className="comment-list replies" aria-label={intl.formatMessage({ id: 'community.comments.replies', defaultMessage: 'Replies' })}>
          {comment.replies.map((r) => (
            <CommentItem key={r.id} comment={r} postId={postId} />
          ))}
        </ul>
      )}
    </li>
  );
}

function CommentForm({
  postId,
  parentId,
  label,
  submitLabel,
  onDone,
}: {
  postId: string;
  parentId?: string;
  label: string;
  submitLabel: string;
  onDone?: () => void;
}) {
  const id = useId();
  const intl = useIntl();
  const [content, setContent] = useState('');
  const [error, setError] = useState<string | undefined>();
  const [createComment, { isLoading }] = useCreateCommentMutation();

  const submit = async (e: FormEvent) => {
    e.preventDefault();
    const text = content.trim();
    if (!text) return setError(communityText('commentRequired', intl));
    if (text.length > COMMUNITY_LIMITS.commentMax) return setError(communityText('commentMax', intl));
    try {
      await createComment({ postId, content: text, parentId: parentId ?? null }).unwrap();
      setContent('');
      setError(undefined);
      onDone?.();
    } catch (err) {
      toast.error((err as ApiError).message ?? intl.formatMessage({ id: 'community.comments.addFailed', defaultMessage: 'Failed to add comment' }));
    }
  };

  return (
    <form className="comment-form" onSubmit={submit} noValidate>
      <label htmlFor={id} className="visually-hidden">
        {label}
      </label>
      <textarea
        id={id}
        rows={2}
        value={content}
        placeholder={
          parentId
            ? intl.formatMessage({ id: 'community.comments.replyPlaceholder', defaultMessage: 'Write a reply...' })
            : intl.formatMessage({ id: 'community.comments.commentPlaceholder', defaultMessage: 'Write a comment...' })
        }
        aria-invalid={error ? true : undefined}
        aria-describedby={error ? `${id}-error` : undefined}
        onChange={(e) => {
          setContent(e.target.value);
          setError(undefined);
        }}
      />
      {error && (
        <p className="field-error" id={`${id}-error`}>
          {error}
        </p>
      )}
      <button type="submit" className="btn btn-primary btn-sm" disabled={isLoading}>
        {isLoading ? <FormattedMessage id="community.comments.posting" defaultMessage="Posting..." /> : submitLabel}
      </button>
    </form>
  );
}

import { useId, useMemo, useState, type FormEvent } from 'react';
import toast from 'react-hot-toast';
import { COMMUNITY_LIMITS, COMMUNITY_MESSAGES, type CommunityComment } from '@beacon/contracts';
import type { ApiError } from '@/app/api';
import { Spinner } from '@/common/Spinner';
import { relativeAge } from '@/common/time';
import { useCreateCommentMutation, usePostCommentsQuery } from './community.api';

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
  const { data, isLoading, isError } = usePostCommentsQuery(postId);
  const thread = useMemo(() => threadOf(data?.items ?? []), [data]);
  return (
    <section className="comments" aria-label={`Comments on ${title}`}>
      {isLoading && <Spinner size="sm" label="Loading comments" />}
      {isError && <p className="muted small">Comments could not be loaded.</p>}
      {data && !thread.length && <p className="muted small">No comments yet. Start the conversation.</p>}
      {thread.length > 0 && (
        <ul className="comment-list" aria-label="Comments">
          {thread.map((c) => (
            <CommentItem key={c.id} comment={c} postId={postId} />
          ))}
        </ul>
      )}
      <CommentForm postId={postId} label="Add a comment" submitLabel="Post Comment" />
    </section>
  );
}

function CommentItem({ comment, postId }: { comment: Node; postId: string }) {
  const [replying, setReplying] = useState(false);
  return (
    <li className="comment">
      <div className="comment-meta small muted">
        <strong>{comment.mine ? 'You' : 'Community member'}</strong> · <time dateTime={comment.createdAt}>{relativeAge(comment.createdAt)}</time>
      </div>
      <p className="user-text comment-text">{comment.content}</p>
      <button type="button" className="btn btn-ghost btn-sm" aria-expanded={replying} onClick={() => setReplying((r) => !r)}>
        {replying ? 'Cancel reply' : 'Reply'}
      </button>
      {replying && <CommentForm postId={postId} parentId={comment.id} label="Reply" submitLabel="Post Reply" onDone={() => setReplying(false)} />}
      {comment.replies.length > 0 && (
        <ul className="comment-list replies" aria-label="Replies">
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
  const [content, setContent] = useState('');
  const [error, setError] = useState<string | undefined>();
  const [createComment, { isLoading }] = useCreateCommentMutation();

  const submit = async (e: FormEvent) => {
    e.preventDefault();
    const text = content.trim();
    if (!text) return setError(COMMUNITY_MESSAGES.commentRequired);
    if (text.length > COMMUNITY_LIMITS.commentMax) return setError(COMMUNITY_MESSAGES.commentMax);
    try {
      await createComment({ postId, content: text, parentId: parentId ?? null }).unwrap();
      setContent('');
      setError(undefined);
      onDone?.();
    } catch (err) {
      toast.error((err as ApiError).message ?? 'Failed to add comment');
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
        placeholder={parentId ? 'Write a reply...' : 'Write a comment...'}
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
        {isLoading ? 'Posting...' : submitLabel}
      </button>
    </form>
  );
}

import { textExcerpt, type CommunityComment, type CommunityPost, type MyCommunityActivity, type PostCategory } from '@beacon/contracts';
import { uploadUrl } from '../uploads/upload-keys';

export interface PostRow {
  id: string;
  title: string;
  category: PostCategory;
  description: string;
  image_path: string | null;
  lat: number;
  lng: number;
  location_name: string | null;
  user_id: string;
  likes_count: number;
  comments_count: number;
  status: 'active';
  created_at: Date;
  updated_at: Date;
  liked_by_me: boolean;
}

export interface CommentRow {
  id: string;
  post_id: string;
  user_id: string;
  parent_id: string | null;
  content: string;
  likes_count: number;
  created_at: Date;
}

/** $1 is the viewer (or null). */
export const POST_COLUMNS = `p.id, p.title, p.category, p.description, p.image_path, p.lat, p.lng, p.location_name, p.user_id,
  p.likes_count, p.comments_count, p.status, p.created_at, p.updated_at,
  EXISTS (SELECT 1 FROM incidents.post_likes l WHERE l.post_id = p.id AND l.user_id = $1::uuid) AS liked_by_me`;

export const COMMENT_COLUMNS = `c.id, c.post_id, c.user_id, c.parent_id, c.content, c.likes_count, c.created_at`;

export function toPost(row: PostRow, viewerId: string | null): CommunityPost {
  return {
    id: row.id,
    title: row.title,
    category: row.category,
    description: row.description,
    imageUrl: row.image_path ? uploadUrl(row.image_path) : null,
    lat: row.lat,
    lng: row.lng,
    locationName: row.location_name,
    userId: row.user_id,
    userEmail: '',
    likesCount: row.likes_count,
    commentsCount: row.comments_count,
    likedByMe: row.liked_by_me,
    mine: row.user_id === viewerId,
    status: 'active',
    createdAt: row.created_at.toISOString(),
    updatedAt: row.updated_at.toISOString(),
  };
}

export function toComment(row: CommentRow, viewerId: string | null): CommunityComment {
  return {
    id: row.id,
    postId: row.post_id,
    userId: row.user_id,
    parentId: row.parent_id,
    content: row.content,
    likesCount: row.likes_count,
    mine: row.user_id === viewerId,
    createdAt: row.created_at.toISOString(),
  };
}

/** A row of the caller's activity union: the columns a kind does not use are null. */
export interface MyActivityRow {
  kind: 'post' | 'comment' | 'level';
  id: string;
  created_at: Date;
  post_id: string | null;
  post_title: string | null;
  category: PostCategory | null;
  content: string | null;
  level: number | null;
  level_name: string | null;
}

export function toMyActivity(row: MyActivityRow): MyCommunityActivity {
  const createdAt = row.created_at.toISOString();
  switch (row.kind) {
    case 'post':
      return { kind: 'post', id: row.id, postId: row.post_id!, title: row.post_title!, category: row.category!, createdAt };
    case 'comment':
      return { kind: 'comment', id: row.id, postId: row.post_id!, postTitle: row.post_title!, excerpt: textExcerpt(row.content!), createdAt };
    case 'level':
      return { kind: 'level', id: row.id, level: row.level!, levelName: row.level_name!, createdAt };
  }
}

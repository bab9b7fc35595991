/** The community forum vocabulary and the points rules, shared by the incidents service and the web app. */
export const POST_CATEGORIES = ['wrong-way-driver', 'traffic-tip', 'neighborhood-watch', 'other'] as const;
export type PostCategory = (typeof POST_CATEGORIES)[number];

export const POST_CATEGORY_INFO: Record<PostCategory, { value: PostCategory; label: string }> = {
  'wrong-way-driver': { value: 'wrong-way-driver', label: 'Wrong-way Driver' },
  'traffic-tip': { value: 'traffic-tip', label: 'Traffic Tip' },
  'neighborhood-watch': { value: 'neighborhood-watch', label: 'Neighborhood Watch' },
  other: { value: 'other', label: 'Other' },
};
export const postCategoryLabel = (c: string): string => POST_CATEGORY_INFO[c as PostCategory]?.label ?? c;

export const POST_SORTS = ['newest', 'likes', 'comments'] as const;
export type PostSort = (typeof POST_SORTS)[number];

export const COMMUNITY_LIMITS = {
  titleMin: 5,
  titleMax: 100,
  descriptionMin: 20,
  descriptionMax: 1000,
  commentMax: 1000,
  locationNameMax: 200,
  pageSize: 10,
  /** List text is cut here. */
  excerptChars: 200,
  trending: 5,
  trendingDays: 7,
  radiusMinKm: 1,
  /** The slider's top value means "anywhere": the filter applies below it. */
  radiusMaxKm: 50,
} as const;

export const COMMUNITY_MESSAGES = {
  titleMin: 'Title must be at least 5 characters',
  titleMax: 'Title must be less than 100 characters',
  categoryRequired: 'Please select a category',
  descriptionMin: 'Description must be at least 20 characters',
  descriptionMax: 'Description must be less than 1000 characters',
  imageTooLarge: 'Image must be less than 5MB',
  invalidImage: 'Please select a valid image file',
  locationRequired: 'Please select a location for your post',
  signInToPost: 'Please sign in to create a post',
  signInToLike: 'Please sign in to like posts',
  signInToComment: 'Please sign in to comment',
  commentRequired: 'Please write a comment',
  commentMax: 'Comment must be less than 1000 characters',
  posted: 'Post created successfully!',
  postFailed: 'Failed to create post. Please try again.',
  loadFailed: 'Failed to load posts',
  likeFailed: 'Failed to update like',
} as const;

/** Points per action. Liking your own post earns nothing. */
export const POINTS = { post: 5, comment: 2, likeReceived: 1 } as const;

export const LEVELS = [
  { level: 1, name: 'Newcomer', min: 0 },
  { level: 2, name: 'Regular', min: 51 },
  { level: 3, name: 'Contributor', min: 201 },
  { level: 4, name: 'Expert', min: 501 },
] as const;

export interface UserPoints {
  points: number;
  level: number;
  /** 'New Member' when the user has no points record yet. */
  levelName: string;
  /** Points at which the next level starts; null at the top level. */
  nextLevelAt: number | null;
  /** 0-100 within the current level (100 at the top level). */
  progress: number;
  /** False until the user earns (or loses) points for the first time. */
  hasRecord: boolean;
}

/** The level for a points total (one rule for the API and the web app). */
export function levelFor(points: number, hasRecord = true): UserPoints {
  const safe = Math.max(0, Math.floor(points));
  let index = 0;
  for (let i = 0; i < LEVELS.length; i++) if (safe >= LEVELS[i].min) index = i;
  const current = LEVELS[index];
  const next = LEVELS[index + 1];
  // floored: 100% only once the next level is reached
  const progress = next ? Math.min(99, Math.floor(((safe - current.min) / (next.min - current.min)) * 100)) : 100;
  return {
    points: safe,
    level: current.level,
    levelName: hasRecord ? current.name : 'New Member',
    nextLevelAt: next ? next.min : null,
    progress,
    hasRecord,
  };
}

export interface CommunityPost {
  id: string;
  title: string;
  category: PostCategory;
  description: string;
  imageUrl: string | null;
  lat: number;
  lng: number;
  locationName: string | null;
  userId: string;
  /** Always empty: e-mail addresses are never published (kept for the spec's shape). */
  userEmail: '';
  likesCount: number;
  commentsCount: number;
  likedByMe: boolean;
  mine: boolean;
  status: 'active';
  createdAt: string;
  updatedAt: string;
}

export interface CommunityComment {
  id: string;
  postId: string;
  userId: string;
  parentId: string | null;
  content: string;
  likesCount: number;
  mine: boolean;
  createdAt: string;
}

/** The first `max` characters of a text, with an ellipsis when it was longer (the lists' one rule). */
export function textExcerpt(text: string, max: number = COMMUNITY_LIMITS.excerptChars): string {
  return text.length <= max ? text : `${text.slice(0, max).trimEnd()}…`;
}

/** One entry of GET /community/me/activity: something the caller did (or reached) in the community. */
export type MyCommunityActivity =
  | { kind: 'post'; id: string; postId: string; title: string; category: PostCategory; createdAt: string }
  | { kind: 'comment'; id: string; postId: string; postTitle: string; excerpt: string; createdAt: string }
  /** When the caller's points ledger first reached a level above the first; id is `level-<n>`. */
  | { kind: 'level'; id: string; level: number; levelName: string; createdAt: string };

/** Newest first (id breaks ties); `total` is exact. */
export interface MyCommunityActivityPage {
  items: MyCommunityActivity[];
  total: number;
}

export interface CommunityStats {
  members: number;
  postsThisWeek: number;
  commentsToday: number;
}

export interface LikeResult {
  postId: string;
  liked: boolean;
  likesCount: number;
}

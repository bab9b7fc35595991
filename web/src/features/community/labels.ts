import type { IntlShape } from 'react-intl';
import { COMMUNITY_LIMITS, LEVELS, POST_CATEGORIES, type PostCategory } from '@beacon/contracts';
import { currentIntl, defineMessages } from '@/i18n';

/**
 * The forum's vocabulary as the web shows it, in the reader's language: contracts' POST_CATEGORY_INFO labels, the
 * level names and COMMUNITY_MESSAGES (same keys; the server still answers with the contracts' English). Other screens
 * (dashboard, shell) name categories and levels with these.
 */
const CATEGORY_NAMES = defineMessages({
  'wrong-way-driver': { id: 'community.category.wrongWayDriver', defaultMessage: 'Wrong-way Driver' },
  'traffic-tip': { id: 'community.category.trafficTip', defaultMessage: 'Traffic Tip' },
  'neighborhood-watch': { id: 'community.category.neighborhoodWatch', defaultMessage: 'Neighborhood Watch' },
  other: { id: 'community.category.other', defaultMessage: 'Other' },
});

/** contracts' LEVELS by number, and the name of a member with no points record yet. */
const LEVEL_NAMES = defineMessages({
  1: { id: 'community.level.newcomer', defaultMessage: 'Newcomer' },
  2: { id: 'community.level.regular', defaultMessage: 'Regular' },
  3: { id: 'community.level.contributor', defaultMessage: 'Contributor' },
  4: { id: 'community.level.expert', defaultMessage: 'Expert' },
});
const LEVEL = defineMessages({
  newMember: { id: 'community.level.newMember', defaultMessage: 'New Member' },
  badge: { id: 'community.level.badge', defaultMessage: 'Level {level} · {name}' },
});

/** The forum's texts from contracts' COMMUNITY_MESSAGES, under the same keys. */
export const COMMUNITY_TEXTS = defineMessages({
  titleMin: { id: 'community.messages.titleMin', defaultMessage: 'Title must be at least {min} characters' },
  titleMax: { id: 'community.messages.titleMax', defaultMessage: 'Title must be less than {max} characters' },
  categoryRequired: { id: 'community.messages.categoryRequired', defaultMessage: 'Please select a category' },
  descriptionMin: { id: 'community.messages.descriptionMin', defaultMessage: 'Description must be at least {min} characters' },
  descriptionMax: { id: 'community.messages.descriptionMax', defaultMessage: 'Description must be less than {max} characters' },
  imageTooLarge: { id: 'community.messages.imageTooLarge', defaultMessage: 'Image must be less than 5MB' },
  invalidImage: { id: 'community.messages.invalidImage', defaultMessage: 'Please select a valid image file' },
  locationRequired: { id: 'community.messages.locationRequired', defaultMessage: 'Please select a location for your post' },
  signInToPost: { id: 'community.messages.signInToPost', defaultMessage: 'Please sign in to create a post' },
  signInToLike: { id: 'community.messages.signInToLike', defaultMessage: 'Please sign in to like posts' },
  signInToComment: { id: 'community.messages.signInToComment', defaultMessage: 'Please sign in to comment' },
  commentRequired: { id: 'community.messages.commentRequired', defaultMessage: 'Please write a comment' },
  commentMax: { id: 'community.messages.commentMax', defaultMessage: 'Comment must be less than {max} characters' },
  posted: { id: 'community.messages.posted', defaultMessage: 'Post created successfully!' },
  postFailed: { id: 'community.messages.postFailed', defaultMessage: 'Failed to create post. Please try again.' },
  loadFailed: { id: 'community.messages.loadFailed', defaultMessage: 'Failed to load posts' },
  likeFailed: { id: 'community.messages.likeFailed', defaultMessage: 'Failed to update like' },
});

/** The limit each of COMMUNITY_TEXTS names, where it names one. */
const LIMITS: Partial<Record<keyof typeof COMMUNITY_TEXTS, { min?: number; max?: number }>> = {
  titleMin: { min: COMMUNITY_LIMITS.titleMin },
  titleMax: { max: COMMUNITY_LIMITS.titleMax },
  descriptionMin: { min: COMMUNITY_LIMITS.descriptionMin },
  descriptionMax: { max: COMMUNITY_LIMITS.descriptionMax },
  commentMax: { max: COMMUNITY_LIMITS.commentMax },
};

/** One of COMMUNITY_TEXTS in the reader's language. */
export const communityText = (key: keyof typeof COMMUNITY_TEXTS, intl: IntlShape = currentIntl()): string =>
  intl.formatMessage(COMMUNITY_TEXTS[key], LIMITS[key]);

/** A post category's name; a value from a newer release shows as it is. */
export const postCategoryName = (category: string, intl: IntlShape = currentIntl()): string =>
  (POST_CATEGORIES as readonly string[]).includes(category) ? intl.formatMessage(CATEGORY_NAMES[category as PostCategory]) : category;

/** A level's name by its number ('Regular'); `fallback` (the server's English name) for a level this release lacks. */
export function levelName(level: number, intl: IntlShape = currentIntl(), fallback?: string): string {
  const known = LEVELS.some((l) => l.level === level) && level in LEVEL_NAMES;
  return known ? intl.formatMessage(LEVEL_NAMES[level as keyof typeof LEVEL_NAMES]) : (fallback ?? String(level));
}

/** What a member's badge says: 'New Member' before their first points, else 'Level 2 · Regular'. */
export function levelBadge(points: { level: number; levelName?: string; hasRecord?: boolean }, intl: IntlShape = currentIntl()): string {
  if (points.hasRecord === false) return intl.formatMessage(LEVEL.newMember);
  return intl.formatMessage(LEVEL.badge, { level: points.level, name: levelName(points.level, intl, points.levelName) });
}

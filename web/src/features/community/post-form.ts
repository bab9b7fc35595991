import { COMMUNITY_LIMITS, COMMUNITY_MESSAGES, POST_CATEGORIES, textExcerpt, type PostCategory } from '@beacon/contracts';
import { photoError, type LatLng } from '../incidents/report-form';

export const POST_STEPS = ['Post Details', 'Location'] as const;

export interface PostValues {
  title: string;
  category: PostCategory | '';
  description: string;
  image: File | null;
  location: LatLng | null;
  locationName: string;
}

export type PostErrors = Partial<Record<'title' | 'category' | 'description' | 'image' | 'location', string>>;

export const EMPTY_POST: PostValues = { title: '', category: '', description: '', image: null, location: null, locationName: '' };

export function validatePostStep(step: number, v: PostValues): PostErrors {
  const e: PostErrors = {};
  if (step === 0) {
    const title = v.title.trim().length;
    if (title < COMMUNITY_LIMITS.titleMin) e.title = COMMUNITY_MESSAGES.titleMin;
    else if (title > COMMUNITY_LIMITS.titleMax) e.title = COMMUNITY_MESSAGES.titleMax;
    if (!v.category || !(POST_CATEGORIES as readonly string[]).includes(v.category)) e.category = COMMUNITY_MESSAGES.categoryRequired;
    const description = v.description.trim().length;
    if (description < COMMUNITY_LIMITS.descriptionMin) e.description = COMMUNITY_MESSAGES.descriptionMin;
    else if (description > COMMUNITY_LIMITS.descriptionMax) e.description = COMMUNITY_MESSAGES.descriptionMax;
    const image = imageError(v.image);
    if (image) e.image = image;
  }
  if (step === 1 && !v.location) e.location = COMMUNITY_MESSAGES.locationRequired;
  return e;
}

export const imageError = (file: File | null) => photoError(file, COMMUNITY_MESSAGES.imageTooLarge);

/** The list shows the first 200 characters. */
export function excerpt(text: string, max: number = COMMUNITY_LIMITS.excerptChars): { text: string; cut: boolean } {
  return { text: textExcerpt(text, max), cut: text.length > max };
}

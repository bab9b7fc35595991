import { COMMUNITY_LIMITS, POST_CATEGORIES, textExcerpt, type PostCategory } from '@beacon/contracts';
import { defineMessages } from '@/i18n';
import { photoError, type LatLng } from '../incidents/report-form';
import { communityText } from './labels';

/** The create-post dialog's steps, named in the reader's language where they are shown. */
export const POST_STEPS = defineMessages({
  details: { id: 'community.create.stepDetails', defaultMessage: 'Post Details' },
  location: { id: 'community.create.stepLocation', defaultMessage: 'Location' },
});

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
    if (title < COMMUNITY_LIMITS.titleMin) e.title = communityText('titleMin');
    else if (title > COMMUNITY_LIMITS.titleMax) e.title = communityText('titleMax');
    if (!v.category || !(POST_CATEGORIES as readonly string[]).includes(v.category)) e.category = communityText('categoryRequired');
    const description = v.description.trim().length;
    if (description < COMMUNITY_LIMITS.descriptionMin) e.description = communityText('descriptionMin');
    else if (description > COMMUNITY_LIMITS.descriptionMax) e.description = communityText('descriptionMax');
    const image = imageError(v.image);
    if (image) e.image = image;
  }
  if (step === 1 && !v.location) e.location = communityText('locationRequired');
  return e;
}

export const imageError = (file: File | null) => photoError(file, () => communityText('imageTooLarge'));

/** The list shows the first 200 characters. */
export function excerpt(text: string, max: number = COMMUNITY_LIMITS.excerptChars): { text: string; cut: boolean } {
  return { text: textExcerpt(text, max), cut: text.length > max };
}

import { IsIn, IsOptional, IsString, IsUUID, MaxLength } from 'class-validator';
import { COMMUNITY_LIMITS, COMMUNITY_MESSAGES, POST_CATEGORIES, POST_SORTS, PostCategory, PostSort } from '@beacon/contracts';
import { Latitude, LocationName, Longitude, NumberRange, OptionalText, OPTIONAL_FROM_TEXT, QueryInt, QueryOffset, TextLength } from '@beacon/common';
import { Trim, TrimToNull } from '../../common/transforms';

const location = COMMUNITY_MESSAGES.locationRequired;

/** What an author may send. No user_id, status or counters: the server owns those. */
export class CreatePostDto {
  @Trim()
  @TextLength(COMMUNITY_LIMITS.titleMin, COMMUNITY_LIMITS.titleMax, { tooShort: COMMUNITY_MESSAGES.titleMin, tooLong: COMMUNITY_MESSAGES.titleMax })
  title: string;

  @IsIn(POST_CATEGORIES, { message: COMMUNITY_MESSAGES.categoryRequired })
  category: PostCategory;

  @Trim()
  @TextLength(COMMUNITY_LIMITS.descriptionMin, COMMUNITY_LIMITS.descriptionMax, {
    tooShort: COMMUNITY_MESSAGES.descriptionMin,
    tooLong: COMMUNITY_MESSAGES.descriptionMax,
  })
  description: string;

  @Latitude(location)
  lat: number;

  @Longitude(location)
  lng: number;

  @TrimToNull()
  @LocationName(COMMUNITY_LIMITS.locationNameMax)
  locationName?: string | null;

  /** The `path` returned by POST /uploads/community-post-photos. */
  @OptionalText(200, { notText: COMMUNITY_MESSAGES.invalidImage, tooLong: COMMUNITY_MESSAGES.invalidImage })
  imagePath?: string | null;
}

export class CreateCommentDto {
  @Trim()
  @TextLength(1, COMMUNITY_LIMITS.commentMax, { tooShort: COMMUNITY_MESSAGES.commentRequired, tooLong: COMMUNITY_MESSAGES.commentMax })
  content: string;

  @IsOptional()
  @IsUUID('all', { message: 'The comment you are replying to was not found' })
  parentId?: string | null;
}

export class ListPostsQuery {
  @IsOptional()
  @IsIn(POST_CATEGORIES, { message: `category must be one of ${POST_CATEGORIES.join(', ')}` })
  category?: PostCategory;

  @IsOptional()
  @Trim()
  @IsString({ message: 'search must be text' })
  @MaxLength(100, { message: 'search must be at most 100 characters' })
  search?: string;

  @IsOptional()
  @IsIn(POST_SORTS, { message: `sort must be one of ${POST_SORTS.join(', ')}` })
  sort: PostSort = 'newest';

  /** Applied below 50 km (the slider's top means anywhere), and only with lat and lng. */
  @NumberRange(COMMUNITY_LIMITS.radiusMinKm, COMMUNITY_LIMITS.radiusMaxKm, 'radiusKm must be a number from 1 to 50', OPTIONAL_FROM_TEXT)
  radiusKm?: number;

  @Latitude('lat must be a latitude between -90 and 90', OPTIONAL_FROM_TEXT)
  lat?: number;

  @Longitude('lng must be a longitude between -180 and 180', OPTIONAL_FROM_TEXT)
  lng?: number;

  @QueryInt(1, 50)
  limit: number = COMMUNITY_LIMITS.pageSize;

  @QueryOffset()
  offset: number = 0;
}

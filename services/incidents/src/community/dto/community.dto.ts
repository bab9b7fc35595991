import { Type } from 'class-transformer';
import { IsIn, IsInt, IsNumber, IsOptional, IsString, IsUUID, Max, MaxLength, Min, MinLength } from 'class-validator';
import { COMMUNITY_LIMITS, COMMUNITY_MESSAGES, POST_CATEGORIES, POST_SORTS, PostCategory, PostSort } from '@beacon/contracts';
import { Trim, TrimToNull } from '../../common/transforms';

const location = { message: COMMUNITY_MESSAGES.locationRequired };
const coordinate = { allowNaN: false, allowInfinity: false };

/** What an author may send. No user_id, status or counters: the server owns those. */
export class CreatePostDto {
  // class-validator reports the BOTTOM decorator's message first: the presence check goes last
  @Trim()
  @MaxLength(COMMUNITY_LIMITS.titleMax, { message: COMMUNITY_MESSAGES.titleMax })
  @MinLength(COMMUNITY_LIMITS.titleMin, { message: COMMUNITY_MESSAGES.titleMin })
  @IsString({ message: COMMUNITY_MESSAGES.titleMin })
  title: string;

  @IsIn(POST_CATEGORIES, { message: COMMUNITY_MESSAGES.categoryRequired })
  category: PostCategory;

  @Trim()
  @MaxLength(COMMUNITY_LIMITS.descriptionMax, { message: COMMUNITY_MESSAGES.descriptionMax })
  @MinLength(COMMUNITY_LIMITS.descriptionMin, { message: COMMUNITY_MESSAGES.descriptionMin })
  @IsString({ message: COMMUNITY_MESSAGES.descriptionMin })
  description: string;

  @IsNumber(coordinate, location)
  @Min(-90, location)
  @Max(90, location)
  lat: number;

  @IsNumber(coordinate, location)
  @Min(-180, location)
  @Max(180, location)
  lng: number;

  @IsOptional()
  @TrimToNull()
  @MaxLength(COMMUNITY_LIMITS.locationNameMax, { message: `Location name must be at most ${COMMUNITY_LIMITS.locationNameMax} characters` })
  @IsString({ message: 'Location name must be text' })
  locationName?: string | null;

  /** The `path` returned by POST /uploads/community-post-photos. */
  @IsOptional()
  @MaxLength(200, { message: COMMUNITY_MESSAGES.invalidImage })
  @IsString({ message: COMMUNITY_MESSAGES.invalidImage })
  imagePath?: string | null;
}

export class CreateCommentDto {
  @Trim()
  @MaxLength(COMMUNITY_LIMITS.commentMax, { message: COMMUNITY_MESSAGES.commentMax })
  @MinLength(1, { message: COMMUNITY_MESSAGES.commentRequired })
  @IsString({ message: COMMUNITY_MESSAGES.commentRequired })
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
  @IsOptional()
  @Type(() => Number)
  @IsNumber(coordinate, { message: 'radiusKm must be a number from 1 to 50' })
  @Min(COMMUNITY_LIMITS.radiusMinKm, { message: 'radiusKm must be a number from 1 to 50' })
  @Max(COMMUNITY_LIMITS.radiusMaxKm, { message: 'radiusKm must be a number from 1 to 50' })
  radiusKm?: number;

  @IsOptional()
  @Type(() => Number)
  @IsNumber(coordinate, { message: 'lat must be a latitude between -90 and 90' })
  @Min(-90, { message: 'lat must be a latitude between -90 and 90' })
  @Max(90, { message: 'lat must be a latitude between -90 and 90' })
  lat?: number;

  @IsOptional()
  @Type(() => Number)
  @IsNumber(coordinate, { message: 'lng must be a longitude between -180 and 180' })
  @Min(-180, { message: 'lng must be a longitude between -180 and 180' })
  @Max(180, { message: 'lng must be a longitude between -180 and 180' })
  lng?: number;

  @IsOptional()
  @Type(() => Number)
  @IsInt({ message: 'limit must be a whole number from 1 to 50' })
  @Min(1, { message: 'limit must be a whole number from 1 to 50' })
  @Max(50, { message: 'limit must be a whole number from 1 to 50' })
  limit: number = COMMUNITY_LIMITS.pageSize;

  @IsOptional()
  @Type(() => Number)
  @IsInt({ message: 'offset must be a whole number of at least 0' })
  @Min(0, { message: 'offset must be a whole number of at least 0' })
  @Max(100000, { message: 'offset must be a whole number of at least 0' })
  offset: number = 0;
}

import { Transform, Type } from 'class-transformer';
import { IsIn, IsInt, IsOptional, IsString, IsUUID, MaxLength, Min } from 'class-validator';
import {
  ALERT_CATEGORIES,
  ALERT_LIMITS,
  ALERT_STATUSES,
  AlertCategory,
  AlertStatus,
  DELIVERY_CHANNELS,
  DELIVERY_STATUSES,
  DeliveryChannel,
  DeliveryStatus,
  Priority,
  PRIORITIES,
  Severity,
  SEVERITIES,
} from '@beacon/contracts';
import { QueryInt } from '@beacon/common';

/** 'all' (what the history screen's selects send for no filter) and '' mean no filter. */
const noAll = ({ value }: { value: unknown }) => (value === 'all' || value === '' ? undefined : value);

export class PageQuery {
  @IsOptional()
  @Type(() => Number)
  @IsInt({ message: 'page must be a whole number from 1' })
  @Min(1, { message: 'page must be a whole number from 1' })
  page: number = 1;

  @QueryInt(1, 100)
  pageSize: number = ALERT_LIMITS.historyPageSize;
}

/** The help-request list: open ones by default in the console, or resolved ones, or (no status) all. */
export class HelpRequestsQuery extends PageQuery {
  @IsOptional()
  @IsIn(['open', 'resolved'], { message: "status must be 'open' or 'resolved'" })
  status?: 'open' | 'resolved';
}

export class ListAlertsQuery extends PageQuery {
  @IsOptional()
  @Transform(noAll)
  @IsString()
  @MaxLength(50)
  type?: string;

  @IsOptional()
  @Transform(noAll)
  @IsIn(PRIORITIES as unknown as string[], { message: 'priority must be one of low, medium, high' })
  priority?: Priority;

  @IsOptional()
  @Transform(noAll)
  @IsIn(SEVERITIES as unknown as string[], { message: 'severity must be one of critical, high, medium, low' })
  severity?: Severity;

  @IsOptional()
  @Transform(noAll)
  @IsIn(ALERT_CATEGORIES as unknown as string[], { message: 'category must be one of weather, traffic, security, public_safety, health' })
  category?: AlertCategory;

  @IsOptional()
  @Transform(noAll)
  @IsIn(ALERT_STATUSES as unknown as string[], { message: `status must be one of ${ALERT_STATUSES.join(', ')}` })
  status?: AlertStatus;

  /** The draft a verified incident created: its incident's id (the moderation screen goes straight to it). */
  @IsOptional()
  @IsUUID('all', { message: 'incident must be an incident id' })
  incident?: string;

  @IsOptional()
  @Transform(({ value }) => (typeof value === 'string' ? value.trim() || undefined : value))
  @IsString()
  @MaxLength(200, { message: 'search must be at most 200 characters' })
  search?: string;
}

/** The history export: the list's filters; its paging, if sent, is ignored (the export is every matching alert). */
export class ExportAlertsQuery extends ListAlertsQuery {}

export class DeliveriesQuery extends PageQuery {
  @IsOptional()
  @Transform(noAll)
  @IsIn(DELIVERY_STATUSES as unknown as string[], { message: `status must be one of ${DELIVERY_STATUSES.join(', ')}` })
  status?: DeliveryStatus;

  @IsOptional()
  @Transform(noAll)
  @IsIn(DELIVERY_CHANNELS as unknown as string[], { message: `channel must be one of ${DELIVERY_CHANNELS.join(', ')}` })
  channel?: DeliveryChannel;
}

export class MyAlertsQuery extends PageQuery {
  @IsOptional()
  @Transform(noAll)
  @IsIn(SEVERITIES as unknown as string[], { message: 'severity must be one of critical, high, medium, low' })
  severity?: Severity;

  @IsOptional()
  @Transform(({ value }) => (typeof value === 'string' ? value.trim() || undefined : value))
  @IsString()
  @MaxLength(200, { message: 'search must be at most 200 characters' })
  search?: string;

  @IsOptional()
  @Transform(({ value }) => value === true || value === 'true' || value === '1')
  unread?: boolean;
}

export class StatsQuery {
  /** IANA time zone the per-day buckets follow (the admin's browser zone). */
  @IsOptional()
  @IsString()
  @MaxLength(64)
  tz?: string;

  @QueryInt(1, 90)
  days: number = 7;
}

export class RecentQuery {
  @QueryInt(1, 50)
  limit: number = ALERT_LIMITS.recentCount;
}

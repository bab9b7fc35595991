import { ArrayUnique, IsArray, IsBoolean, IsIn, IsInt, IsOptional, IsString, Matches, Max, MaxLength, Min } from 'class-validator';
import { DELIVERY_CHANNELS, DeliveryChannel, TEST_SCHEDULE_FREQUENCIES, TestScheduleFrequency } from '@beacon/contracts';

/** PUT /api/alerts/admin/settings/test-schedule: the fields to change; one left out keeps its saved value. */
export class TestScheduleDto {
  /** off: no recurring test; daily; weekly on `weekday`. */
  @IsOptional()
  @IsIn(TEST_SCHEDULE_FREQUENCIES as unknown as string[], { message: `frequency must be one of ${TEST_SCHEDULE_FREQUENCIES.join(', ')}` })
  frequency?: TestScheduleFrequency;

  /** 0 (Sunday) to 6 (Saturday). */
  @IsOptional()
  @IsInt({ message: 'weekday must be a whole number from 0 (Sunday) to 6 (Saturday)' })
  @Min(0, { message: 'weekday must be a whole number from 0 (Sunday) to 6 (Saturday)' })
  @Max(6, { message: 'weekday must be a whole number from 0 (Sunday) to 6 (Saturday)' })
  weekday?: number;

  /** HH:MM on a 24-hour clock, local to timeZone. */
  @IsOptional()
  @Matches(/^([01]\d|2[0-3]):[0-5]\d$/, { message: 'time must be HH:MM on a 24-hour clock, e.g. 09:30' })
  time?: string;

  /** An IANA time zone, e.g. America/New_York (checked by the service: invalid_time_zone). */
  @IsOptional()
  @IsString({ message: 'timeZone must be an IANA time zone, e.g. America/New_York' })
  @MaxLength(64, { message: 'timeZone must be an IANA time zone, e.g. America/New_York' })
  timeZone?: string;

  @IsOptional()
  @IsArray({ message: `channels must be a list of ${DELIVERY_CHANNELS.join(', ')}` })
  @ArrayUnique({ message: 'channels must not repeat a channel' })
  @IsIn(DELIVERY_CHANNELS as unknown as string[], { each: true, message: `channels must be among ${DELIVERY_CHANNELS.join(', ')}` })
  channels?: DeliveryChannel[];
}

/** PUT /api/alerts/admin/test-group/me: whether the signed-in staff member receives the recurring test alert. */
export class TestGroupMembershipDto {
  @IsBoolean({ message: 'member must be true or false' })
  member: boolean;
}

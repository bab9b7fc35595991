import { IsBoolean, IsOptional } from 'class-validator';
import { SendAtField } from './send-at.field';

/** POST /api/alerts/:id/send: what the sender confirms about the draft going out. */
export class SendDraftDto {
  /**
   * A draft with no area reaches everyone its other rules allow: that must be chosen, not fallen into (issue #38).
   * Required (true) for such a draft; refused with an area (area_and_everyone).
   */
  @IsOptional()
  @IsBoolean({ message: 'everyone must be true or false' })
  everyone?: boolean;

  /** Send at this time instead of now (ISO 8601, at most SCHEDULE_MAX_DAYS ahead): the draft becomes scheduled (issue #38). */
  @SendAtField()
  sendAt?: string;
}

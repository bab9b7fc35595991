import { IsOptional, IsString, MaxLength } from 'class-validator';
import { APPROVAL_REASON_LIMITS } from '@beacon/contracts';

/** POST /api/alerts/:id/approve: an optional note kept with the approval. */
export class ApproveAlertDto {
  @IsOptional()
  @IsString({ message: 'note must be text' })
  @MaxLength(APPROVAL_REASON_LIMITS.max, { message: `note must be at most ${APPROVAL_REASON_LIMITS.max} characters` })
  note?: string;
}

/**
 * POST /api/alerts/:id/reject and /break-glass: the typed reason the record keeps. Its length is checked by the service
 * (typedReason), so that a missing or short one gets its own code rather than a generic validation error.
 */
export class TypedReasonDto {
  @IsOptional()
  @IsString({ message: 'reason must be text' })
  reason?: string;
}

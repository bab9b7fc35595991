import { IsBoolean, IsIn, IsOptional } from 'class-validator';
import { APPROVAL_MODES, ApprovalMode, SEVERITIES, Severity } from '@beacon/contracts';

/** PUT /api/alerts/admin/settings/approval: the fields to change; one left out keeps its saved value. */
export class ApprovalPolicyDto {
  /** off: nothing waits; severity: alerts at or above minSeverity; all: every alert. */
  @IsOptional()
  @IsIn(APPROVAL_MODES as unknown as string[], { message: `mode must be one of ${APPROVAL_MODES.join(', ')}` })
  mode?: ApprovalMode;

  @IsOptional()
  @IsIn(SEVERITIES as unknown as string[], { message: `minSeverity must be one of ${SEVERITIES.join(', ')}` })
  minSeverity?: Severity;

  /** A CAP source's automatic sends wait for approval too. */
  @IsOptional()
  @IsBoolean({ message: 'capAutomatic must be true or false' })
  capAutomatic?: boolean;
}

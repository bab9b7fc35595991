import { Body, Controller, Headers, HttpCode, Param, Post } from '@nestjs/common';
import { AuthUser, CurrentUser, MinRole } from '@beacon/auth';
import { ApiErrors, ApiOperation, ApiReturns, ErrorMap } from '@beacon/common';
import { AUDIENCE_TOKEN_HEADER } from '@beacon/contracts';
import { alertIdPipe as uuid } from '../alerts/alert-id.pipe';
import { ApprovalsService } from './approvals.service';
import { ApproveAlertDto, TypedReasonDto } from './dto/approval-decision.dto';

/** What an approval or a break-glass send carrying an audience preview's token may be refused for (AudienceGuard). */
const AUDIENCE_GUARD_ERRORS = {
  400: ['invalid_audience_token'],
  409: ['audience_changed', 'audience_preview_expired', 'audience_preview_mismatch'],
} as const satisfies ErrorMap;

/**
 * The second pair of eyes (issue #38): an alert the approval policy holds is approved or rejected by another approver,
 * or sent by its author without approval on a typed reason. Under the alerts' own paths (/:id/approve, ...). Approving
 * (when it goes out now) and a break-glass send are sends: like POST /:id/send they take the Audience-Token of
 * GET /:id/audience, and are refused (409, with the audience as it is now) when whom it reaches moved since.
 */
@Controller()
@MinRole('admin')
export class ApprovalsController {
  constructor(private readonly approvals: ApprovalsService) {}

  /** Approved by a second person: sent now, or scheduled for its time. */
  @Post(':id/approve')
  @MinRole('approver')
  @HttpCode(200)
  @ApiReturns('AdminAlert')
  @ApiOperation(
    'alerts.approve',
    'Approve an alert',
    'Approves an alert awaiting approval: it is sent now, or scheduled when its send time is ahead. Never by its author, or by whoever asked for its send. Takes the token of GET /:id/audience in the Audience-Token header, as POST /:id/send does.',
  )
  @ApiErrors({ 403: ['approval_by_author'], 404: ['alert_not_found'], 409: ['invalid_alert_status'] })
  @ApiErrors(AUDIENCE_GUARD_ERRORS)
  approve(@CurrentUser() user: AuthUser, @Param('id', uuid) id: string, @Body() dto: ApproveAlertDto, @Headers(AUDIENCE_TOKEN_HEADER) audienceToken?: string) {
    return this.approvals.approve(id, { id: user.id, email: user.email }, dto, audienceToken);
  }

  /** Rejected with a reason: back to a draft. */
  @Post(':id/reject')
  @MinRole('approver')
  @HttpCode(200)
  @ApiReturns('AdminAlert')
  @ApiOperation(
    'alerts.reject',
    'Reject an alert',
    'Rejects an alert awaiting approval, with a reason: it goes back to a draft, the rejection and its reason kept on it. Never by its author.',
  )
  @ApiErrors({ 400: ['approval_reason_required'], 403: ['approval_by_author'], 404: ['alert_not_found'], 409: ['invalid_alert_status'] })
  reject(@CurrentUser() user: AuthUser, @Param('id', uuid) id: string, @Body() dto: TypedReasonDto) {
    return this.approvals.reject(id, { id: user.id, email: user.email }, dto);
  }

  /** Sent now without the approval it waits for, on a typed reason: audited and flagged on the alert. */
  @Post(':id/break-glass')
  @MinRole('publisher')
  @HttpCode(200)
  @ApiReturns('AdminAlert')
  @ApiOperation(
    'alerts.breakGlass',
    'Send without approval (break-glass)',
    'Sends an alert awaiting approval now, without it, on a typed reason; the alert is flagged and the reason kept in its audit trail. Takes the token of GET /:id/audience in the Audience-Token header, as POST /:id/send does.',
  )
  @ApiErrors({ 400: ['break_glass_reason_required'], 404: ['alert_not_found'], 409: ['invalid_alert_status'] })
  @ApiErrors(AUDIENCE_GUARD_ERRORS)
  breakGlass(
    @CurrentUser() user: AuthUser,
    @Param('id', uuid) id: string,
    @Body() dto: TypedReasonDto,
    @Headers(AUDIENCE_TOKEN_HEADER) audienceToken?: string,
  ) {
    return this.approvals.breakGlass(id, { id: user.id, email: user.email }, dto, audienceToken);
  }
}

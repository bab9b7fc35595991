import { Injectable } from '@nestjs/common';
import { AdminAlert } from '@beacon/contracts';
import { badRequest, conflict, forbidden, LiveEvents, notFound } from '@beacon/common';
import { AlertRow, toSummary } from '../alerts/alert.rows';
import { AlertsRepository } from '../alerts/alerts.repository';
import { AlertsService } from '../alerts/alerts.service';
import { AudienceGuard } from '../alerts/audience-guard.service';
import { AudiencePreviewService } from '../alerts/audience-preview.service';
import type { Actor } from '../alerts/audit.repository';
import { ApprovalsRepository } from './approvals.repository';
import { ApproveAlertDto, TypedReasonDto } from './dto/approval-decision.dto';
import { REASON_LENGTH, typedReason } from '../alerts/send-review';

/** Whether `actor` wrote the alert or asked for its send: the one person who may not approve or reject it. */
const isAuthor = (row: AlertRow, actor: Actor) => !!actor.id && (row.created_by === actor.id || row.approval?.requestedBy === actor.id);

const authorRefusal = () => forbidden('You wrote or sent this alert: another approver must decide on it', 'approval_by_author');

/**
 * The second pair of eyes (issue 38): an alert awaiting approval is approved (sent, or scheduled for its time) or
 * rejected (back to a draft, with the reason) by an approver who is not its author, or sent at once without approval
 * by a publisher on a typed reason (break-glass), flagged on the alert. Every open console is told at once.
 * An approval or a break-glass send with an audience preview's token goes ahead only while its audience is the one
 * the sender confirmed (AudienceGuard, as for a draft's send).
 */
@Injectable()
export class ApprovalsService {
  constructor(
    private readonly decisions: ApprovalsRepository,
    private readonly alertRows: AlertsRepository,
    private readonly alerts: AlertsService,
    private readonly live: LiveEvents,
    private readonly guard: AudienceGuard,
    private readonly previews: AudiencePreviewService,
  ) {}

  async approve(id: string, actor: Actor, dto: ApproveAlertDto, audienceToken?: string): Promise<AdminAlert> {
    if (audienceToken !== undefined) {
      // who may decide first: the author is told it is not theirs to approve, not that the count moved
      const row = await this.waiting(id, 'approved');
      if (isAuthor(row, actor)) throw authorRefusal();
      await this.audienceChecked(row, audienceToken);
    }
    const row = await this.decisions.approve(id, actor, dto.note?.trim() || null);
    if (!row) throw await this.decisionRefusal(id, actor, 'approved');
    return this.decided(row);
  }

  async reject(id: string, actor: Actor, dto: TypedReasonDto): Promise<AdminAlert> {
    const reason = typedReason(dto.reason);
    if (!reason) throw badRequest(`Say why it is rejected, in ${REASON_LENGTH}`, 'approval_reason_required');
    const row = await this.decisions.reject(id, actor, reason);
    if (!row) throw await this.decisionRefusal(id, actor, 'rejected');
    return this.decided(row);
  }

  async breakGlass(id: string, actor: Actor, dto: TypedReasonDto, audienceToken?: string): Promise<AdminAlert> {
    const reason = typedReason(dto.reason);
    if (!reason) throw badRequest(`Say why it cannot wait for approval, in ${REASON_LENGTH}`, 'break_glass_reason_required');
    if (audienceToken !== undefined) await this.audienceChecked(await this.waiting(id, 'sent without approval'), audienceToken);
    const row = await this.decisions.breakGlass(id, actor, reason);
    if (!row) throw await this.refusal(id, 'sent without approval');
    return this.decided(row);
  }

  /**
   * With a token, the audience the decision sends to must still be the one confirmed (AudienceGuard). Approved ahead of
   * its send time, the alert goes out later (counted again then); the token is checked all the same.
   */
  private audienceChecked(row: AlertRow, audienceToken: string) {
    return this.guard.check(audienceToken, () => this.previews.forApproval(row));
  }

  /** The alert, awaiting approval; else why it cannot be `what`. */
  private async waiting(id: string, what: string): Promise<AlertRow> {
    const row = await this.alertRows.findById(id);
    if (row?.status !== 'pending_approval') throw await this.refusal(id, what);
    return row;
  }

  private async decided(row: AlertRow): Promise<AdminAlert> {
    if (row.status === 'active') await this.alerts.enqueueDispatch(row.id);
    this.live.toAdmins('alert:updated', toSummary(row));
    return this.alerts.get(row.id);
  }

  /** Why an approval or rejection found nothing to change: the author's own alert, or as refusal says. */
  private async decisionRefusal(id: string, actor: Actor, what: string) {
    const row = await this.alertRows.findById(id);
    if (row?.status === 'pending_approval' && isAuthor(row, actor)) return authorRefusal();
    return this.refusal(id, what);
  }

  /** Why a decision found nothing to change: no such alert, or not awaiting approval (any more). */
  private async refusal(id: string, what: string) {
    const row = await this.alertRows.findById(id);
    if (!row) return notFound('Alert', 'alert_not_found');
    return conflict(
      row.status === 'pending_approval'
        ? 'The alert changed meanwhile: reload it and try again'
        : `Only an alert awaiting approval can be ${what}; this one is ${row.status}`,
      'invalid_alert_status',
    );
  }
}

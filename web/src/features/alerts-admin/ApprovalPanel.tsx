import { useId, useState } from 'react';
import { APPROVAL_REASON_LIMITS, type AdminAlert, type AlertApproval, type ApprovalReason } from '@beacon/contracts';
import { errorMessage } from '@/app/api';
import { serverNow } from '@/common/server-clock';
import { formatDateTime } from '@/common/time';
import { useApproveAlertMutation, useBreakGlassAlertMutation, useDraftAudienceMutation, useRejectAlertMutation } from './alerts-admin.api';
import { GuardedSendDialog, people, useAudienceGuard } from './AudienceGuard';
import { partNamesOf } from './alert-form';
import { useConsoleRights } from './rights';
import { isEveryoneAlert } from './target-groups';

const REASONS: Record<ApprovalReason, string> = {
  severity: 'its severity is at or above the level the approval policy names',
  all: 'the approval policy asks for it on every alert',
  cap: "the approval policy asks for it on a CAP source's automatic sends",
};

const who = (email: string | null, id: string | null) => email ?? (id ? `user ${id.slice(0, 8)}` : 'Beacon');
const reasonShort = (text: string) => text.trim().length < APPROVAL_REASON_LIMITS.min;

/** The approval's decision in words, for the alert's page once it was made. */
export function decisionText(p: AlertApproval): string | null {
  if (!p.decision) return null;
  const by = `by ${who(p.decidedByEmail, p.decidedBy)} ${formatDateTime(p.decidedAt)}`;
  return p.decision === 'approved'
    ? `Approved ${by}${p.note ? `: “${p.note}”` : '.'}`
    : `Rejected ${by}: “${p.note ?? ''}”. It is a draft again: edit it and send it to ask anew.`;
}

/**
 * The two-person rule on the alert's page (issue #38). While the alert awaits approval: an approver who is not its
 * author approves it (with an optional note; it goes out now, or at its send time) or rejects it (a reason required;
 * it is a draft again); its author reads that it waits for another approver and may, in an emergency, send it without
 * approval on a typed reason, which flags the alert for good. Afterwards: the decision, and any break-glass send, for
 * everyone. The page reads the alert again on its live 'alert:updated', so a colleague's decision shows at once.
 * Approving an alert that goes out now, and the emergency send, are sends (issue #38): after the note or reason, each
 * counts whom the alert reaches (GET /api/alerts/:id/audience, as a draft's Send Now does) and goes ahead only on
 * "Approve and send to N people" / "Send now without approval to N people", with the count's token; a count that moved
 * meanwhile is shown and asked about again. Approving one that goes out later sends nothing yet: a plain confirmation.
 */
export function ApprovalPanel({ alert: a }: { alert: AdminAlert }) {
  const id = useId();
  const { userId, canPublish, canApprove } = useConsoleRights();
  const [mode, setMode] = useState<'approve' | 'reject' | 'break-glass' | null>(null);
  const [text, setText] = useState('');
  const [outcome, setOutcome] = useState<{ ok: boolean; text: string } | null>(null);
  const [approve, approving] = useApproveAlertMutation();
  const [reject, rejecting] = useRejectAlertMutation();
  const [breakGlass, breaking] = useBreakGlassAlertMutation();
  const [countAudience] = useDraftAudienceMutation();
  const guard = useAudienceGuard();
  const busy = approving.isLoading || rejecting.isLoading || breaking.isLoading;
  const pending = a.status === 'pending_approval';
  if (!pending && !a.approval && !a.breakGlass && !outcome) return null;

  const p = a.approval;
  const author = p?.requestedBy ?? a.createdBy;
  const isAuthor = userId !== null && userId === author;
  const mayDecide = pending && canApprove && !isAuthor;
  // An approver who is not the author approves instead; anyone else who may send can break the glass.
  const mayBreakGlass = pending && canPublish && !mayDecide;
  const choose = (m: typeof mode) => {
    setMode(m);
    setText('');
    setOutcome(null);
  };
  // Approved ahead of its send time, nothing goes out yet (it is counted again when it does): no count to confirm.
  const later = !!a.sendAt && Date.parse(a.sendAt) > serverNow().getTime();
  const sendsNow = mode === 'break-glass' || (mode === 'approve' && !later);
  // While the count is shown, the note or reason stays as counted: it is what will be sent with it.
  const guarding = guard.state.phase !== 'closed';
  // It has neither an area nor a contact group only when everyone was chosen as it was sent for approval: its count is
  // of everyone, confirmed twice.
  const everyone = isEveryoneAlert(a);

  /** Approving now or the emergency send: counted first, sent only on the confirmation naming the number. */
  function countThenSend(m: 'approve' | 'break-glass', words: string) {
    guard.open({
      preview: () => countAudience({ id: a.id, everyone: everyone || undefined }).unwrap(),
      send: (audienceToken) =>
        m === 'approve'
          ? approve({ id: a.id, note: words || undefined, audienceToken }).unwrap()
          : breakGlass({ id: a.id, reason: words, audienceToken }).unwrap(),
      onSent: (done, audience) => {
        setMode(null);
        setOutcome({
          ok: true,
          text:
            m === 'approve'
              ? approvedText(done, audience.recipients)
              : `Sent without approval: it is going out now to ${people(audience.recipients)}, and the alert is flagged with your reason.`,
        });
      },
      onError: (err) => setOutcome({ ok: false, text: errorMessage(err, 'That did not work. Please try again.') }),
    });
  }

  async function act() {
    const words = text.trim();
    setOutcome(null);
    if (mode === 'break-glass' || (mode === 'approve' && !later)) return countThenSend(mode, words);
    try {
      if (mode === 'approve') {
        const done = await approve({ id: a.id, note: words || undefined }).unwrap();
        setOutcome({ ok: true, text: approvedText(done, null) });
      } else if (mode === 'reject') {
        await reject({ id: a.id, reason: words }).unwrap();
        setOutcome({ ok: true, text: 'Rejected: the alert is a draft again, with your reason.' });
      }
      setMode(null);
    } catch (err) {
      setOutcome({ ok: false, text: errorMessage(err, 'That did not work. Please try again.') });
    }
  }

  const needsReason = mode === 'reject' || mode === 'break-glass';
  const field =
    mode === 'approve'
      ? 'Note for the record (optional)'
      : mode === 'reject'
        ? `Why it is rejected (at least ${APPROVAL_REASON_LIMITS.min} characters)`
        : `Why it cannot wait for approval (at least ${APPROVAL_REASON_LIMITS.min} characters)`;
  const actLabel = sendsNow ? 'Count who it reaches' : mode === 'approve' ? 'Approve' : 'Reject';

  return (
    <section className="card stack" aria-labelledby={`${id}-title`}>
      <h2 id={`${id}-title`}>Approval</h2>
      {a.breakGlass && (
        <p role="note" className="audience-warning">
          <strong>Sent without approval (emergency)</strong> by {who(a.breakGlass.byEmail, a.breakGlass.by)} {formatDateTime(a.breakGlass.at)}: “
          {a.breakGlass.reason}”
        </p>
      )}
      {pending && (
        <p>
          <strong>Awaiting approval</strong>
          {p && (
            <>
              {' '}
              since {formatDateTime(p.requestedAt)}, sent for approval by {who(p.requestedByEmail, p.requestedBy)}: {REASONS[p.reason]}
            </>
          )}
          .{a.sendAt && <> Once approved, it goes out {formatDateTime(a.sendAt)} (your time).</>}
        </p>
      )}
      {pending && isAuthor && <p role="status">Waiting for approval by another approver: you cannot approve your own alert.</p>}
      {pending && !isAuthor && !canApprove && <p className="muted">Waiting for approval by an approver.</p>}
      {p && decisionText(p) && <p>{decisionText(p)}</p>}
      {mode === null && (mayDecide || mayBreakGlass) && (
        <div className="row">
          {mayDecide && (
            <>
              <button type="button" className="btn btn-primary" onClick={() => choose('approve')}>
                Approve…
              </button>
              <button type="button" className="btn btn-outline" onClick={() => choose('reject')}>
                Reject…
              </button>
            </>
          )}
          {mayBreakGlass && (
            <button type="button" className="btn btn-danger" onClick={() => choose('break-glass')}>
              Send without approval (emergency)…
            </button>
          )}
        </div>
      )}
      {mode !== null && pending && (
        <form
          className="stack"
          aria-label={mode === 'approve' ? 'Approve' : mode === 'reject' ? 'Reject' : 'Send without approval'}
          onSubmit={(e) => {
            e.preventDefault();
            void act();
          }}
        >
          {mode === 'break-glass' && (
            <p className="audience-warning">
              It goes out now, without the second pair of eyes the policy asks for. The alert is flagged as sent without approval, with your name and reason,
              wherever it is shown.
            </p>
          )}
          <div className="field">
            <label htmlFor={`${id}-text`}>{field}</label>
            <textarea
              id={`${id}-text`}
              value={text}
              onChange={(e) => setText(e.target.value)}
              maxLength={APPROVAL_REASON_LIMITS.max}
              rows={2}
              required={needsReason}
              readOnly={guarding}
            />
          </div>
          <div className="row">
            <button
              type="submit"
              className={mode === 'approve' ? 'btn btn-primary' : 'btn btn-danger'}
              disabled={busy || guarding || (needsReason && reasonShort(text))}
            >
              {busy ? 'Working…' : actLabel}
            </button>
            <button type="button" className="btn btn-outline" onClick={() => choose(null)} disabled={busy || guarding}>
              Back
            </button>
          </div>
        </form>
      )}
      {outcome && (
        <p role={outcome.ok ? 'status' : 'alert'} className={outcome.ok ? '' : 'field-error'}>
          {outcome.text}
        </p>
      )}
      <GuardedSendDialog
        guard={guard}
        title={mode === 'break-glass' ? `Send “${a.title}” now without approval?` : `Approve “${a.title}” and send it now?`}
        actionLabel={mode === 'break-glass' ? 'Send now without approval to' : 'Approve and send to'}
        everyone={everyone}
        partNames={partNamesOf(a.area)}
      >
        {text.trim() && (
          <p className="small">
            {mode === 'break-glass' ? 'Your reason, kept on the alert' : 'Your note for the record'}: “{text.trim()}”
          </p>
        )}
      </GuardedSendDialog>
    </section>
  );
}

/**
 * What an approval came to: scheduled for its time, or going out now (to the `recipients` confirmed, when counted). The
 * server decides by its clock: a send time that passed while the approver read goes out now.
 */
function approvedText(done: AdminAlert, recipients: number | null): string {
  if (done.status === 'scheduled') return `Approved: it goes out ${formatDateTime(done.sendAt)}.`;
  return recipients === null ? 'Approved: it is going out now.' : `Approved: it is going out now to ${people(recipients)}.`;
}

import { useId, useState } from 'react';
import type { AdminAlert, AlertAudience } from '@beacon/contracts';
import { errorMessage } from '@/app/api';
import { formatDateTime } from '@/common/time';
import { serverNow } from '@/common/server-clock';
import { localDateTimeValue, localTimeZone, MESSAGES, partNamesOf, sendAtError } from './alert-form';
import { useDraftAudienceMutation, useSendDraftMutation } from './alerts-admin.api';
import { GuardedSendDialog, people, useAudienceGuard } from './AudienceGuard';
import { LanguagePreviews } from './LanguagePreviews';
import { isEveryoneAlert } from './target-groups';

/** What sending a draft came to, in words: sent, scheduled, or held for a second person's approval. */
export function sendOutcomeText(sent: AdminAlert, audience: AlertAudience): string {
  if (sent.status === 'pending_approval')
    return 'Awaiting approval: the approval policy asks a second person (an approver other than you) to approve it before it goes out.';
  if (sent.status === 'scheduled') return `Scheduled for ${formatDateTime(sent.sendAt)} (your time).`;
  return `Sent: going out to ${people(audience.recipients)}.`;
}

/** What the first step asks before anything is counted: the time of a schedule, everyone for a draft with no area. */
interface Plan {
  when: 'now' | 'later';
  /** A `datetime-local` value in the browser's zone. */
  sendAt: string;
  everyone: boolean;
}

/**
 * A draft's Send Now and Schedule (issue #38). Neither sends on the click: each opens a confirmation that counts whom
 * the draft reaches (GET /api/alerts/:id/audience) and sends only on "Send to N people", with the count's token. A
 * draft with no area asks first for the explicit, separately ticked choice of everyone, everywhere (and confirms that
 * once more); a schedule asks first for its time. The server may hold the send for approval (202): the outcome says so.
 */
export function DraftSendButtons({ alert: a, onOutcome }: { alert: AdminAlert; onOutcome: (outcome: { ok: boolean; text: string }) => void }) {
  const id = useId();
  const [plan, setPlan] = useState<Plan | null>(null);
  const [draftAudience] = useDraftAudienceMutation();
  const [sendDraft] = useSendDraftMutation();
  const guard = useAudienceGuard();
  // A draft to contact groups without an area goes to their members: it is not one for everyone (issue #42).
  const noArea = isEveryoneAlert(a);
  const timeError = plan?.when === 'later' ? sendAtError(plan.sendAt) : undefined;
  const ready = plan !== null && !timeError && (!noArea || plan.everyone);

  function count(p: Plan) {
    const sendAt = p.when === 'later' ? new Date(p.sendAt).toISOString() : undefined;
    guard.open({
      preview: () => draftAudience({ id: a.id, everyone: p.everyone || undefined }).unwrap(),
      send: (audienceToken) => sendDraft({ id: a.id, audienceToken, ...(p.everyone ? { everyone: true } : {}), ...(sendAt ? { sendAt } : {}) }).unwrap(),
      onSent: (sent, audience) => {
        setPlan(null);
        onOutcome({ ok: true, text: sendOutcomeText(sent, audience) });
      },
      onError: (err) => {
        setPlan(null);
        onOutcome({ ok: false, text: errorMessage(err, 'The draft could not be sent.') });
      },
    });
  }

  function start(when: 'now' | 'later') {
    const p: Plan = { when, sendAt: '', everyone: false };
    setPlan(p);
    // Sending now a draft that has its area: nothing to ask first, straight to the count.
    if (when === 'now' && !noArea) count(p);
  }

  function close() {
    guard.close();
    setPlan(null);
  }

  return (
    <>
      <button type="button" className="btn btn-primary btn-sm" onClick={() => start('now')} aria-label={`Send Now: ${a.title}`}>
        Send Now
      </button>
      <button type="button" className="btn btn-outline btn-sm" onClick={() => start('later')} aria-label={`Schedule: ${a.title}`}>
        Schedule
      </button>
      {plan && guard.state.phase === 'closed' && (
        <div className="modal-backdrop" role="presentation" onKeyDown={(e) => e.key === 'Escape' && close()}>
          <form
            className="modal stack"
            role="dialog"
            aria-modal="true"
            aria-labelledby={`${id}-plan`}
            onSubmit={(e) => {
              e.preventDefault();
              if (ready) count(plan);
            }}
          >
            <h2 id={`${id}-plan`}>{plan.when === 'later' ? `Schedule “${a.title}”` : `Send “${a.title}”`}</h2>
            {plan.when === 'later' && (
              <div className="field">
                <label htmlFor={`${id}-send-at`}>Send at (your time, {localTimeZone()})</label>
                <input
                  id={`${id}-send-at`}
                  type="datetime-local"
                  value={plan.sendAt}
                  min={localDateTimeValue(serverNow())}
                  onChange={(e) => setPlan({ ...plan, sendAt: e.target.value })}
                  aria-invalid={!!plan.sendAt && !!timeError}
                  aria-describedby={plan.sendAt && timeError ? `${id}-send-at-error` : undefined}
                  required
                />
                {plan.sendAt && timeError && (
                  <p id={`${id}-send-at-error`} className="field-error">
                    {timeError}
                  </p>
                )}
              </div>
            )}
            {noArea && (
              <div className="audience-warning stack">
                <p>
                  <strong>This draft has no area.</strong> {MESSAGES.areaRequired}: edit the draft below to draw its area, or choose everyone.
                </p>
                <label htmlFor={`${id}-everyone`} className="row">
                  <input id={`${id}-everyone`} type="checkbox" checked={plan.everyone} onChange={(e) => setPlan({ ...plan, everyone: e.target.checked })} />
                  <span>Send it to everyone, everywhere (every person whose preferences match it, wherever they are)</span>
                </label>
              </div>
            )}
            <div className="row-between">
              <button type="button" className="btn btn-outline" onClick={close}>
                Cancel
              </button>
              <button type="submit" className="btn btn-primary" disabled={!ready}>
                Count who it reaches
              </button>
            </div>
          </form>
        </div>
      )}
      {plan && (
        <GuardedSendDialog
          guard={{ ...guard, close }}
          title={plan.when === 'later' ? `Schedule “${a.title}”?` : `Send “${a.title}” now?`}
          actionLabel={plan.when === 'later' ? 'Schedule for' : 'Send to'}
          lead={plan.when === 'later' ? 'Sent now, it would reach' : 'This alert will reach'}
          everyone={plan.everyone}
          partNames={partNamesOf(a.area)}
        >
          {plan.when === 'later' && (
            <p className="small">
              It goes out by itself {formatDateTime(new Date(plan.sendAt))} (your time, {localTimeZone()}); Beacon counts whom it reaches again then.
            </p>
          )}
          <LanguagePreviews alert={a} channels={a.channels} label="What it says, per language and channel" />
        </GuardedSendDialog>
      )}
    </>
  );
}

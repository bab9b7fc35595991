import { useEffect, useId, useRef, useState, type ReactNode } from 'react';
import type { AlertAudience } from '@beacon/contracts';
import { errorMessage, type ApiError } from '@/app/api';
import { Spinner } from '@/common/Spinner';
import { AudienceSummary, count as formatCount, people } from './AudienceSummary';
import './audience.css';
import './compose.css';

/**
 * The one guard of every path that sends (issue #38): whom it reaches, per channel, from the server's audience preview,
 * and a button naming the number ("Send to 1,204 people") that sends with that preview's token. Nothing can be sent
 * without counts: a failed preview offers only to count again. When the send answers 409 because the audience moved,
 * the new counts replace the old ones (useSendGuard) and the admin is asked again; nothing is sent on them
 * silently. An alert for everyone, everywhere takes a second, separate confirmation.
 */

/** What a sending call's 409 of the audience guard carries: the audience as it is now, with a fresh token. */
export interface AudienceConflict {
  audience: AlertAudience;
  message: string;
}

/** The fresh audience of a 409 (audience changed, preview expired or not for this send); null for any other error. */
export function audienceConflict(error: unknown): AudienceConflict | null {
  const e = error as Partial<ApiError> | undefined;
  const details = e?.details as { audience?: AlertAudience } | undefined;
  if (e?.statusCode !== 409 || !details?.audience || typeof details.audience.token !== 'string') return null;
  return { audience: details.audience, message: e.message ?? '' };
}

/** Shown once a 409 replaced the counts: the server's words, and how many the admin had confirmed before. */
export interface AudienceRefreshed {
  previous: number;
  message: string;
}

export type GuardedSend<T> = { status: 'sent'; value: T } | { status: 'refreshed' };

/**
 * The audience a confirmation shows: the preview's, or the fresher one a 409 answered with (until a new preview comes).
 * `send(token, run)` runs the sending call with the token the admin confirmed; a 409 with fresh counts becomes
 * `refreshed` (the confirmation asks again, naming the new number) instead of an error; any other error is thrown.
 */
export function useSendGuard(preview: AlertAudience | undefined) {
  const [conflict, setConflict] = useState<(AudienceConflict & AudienceRefreshed & { of: AlertAudience | undefined }) | null>(null);
  // A new preview (other values) makes an older 409's counts irrelevant.
  const current = conflict && conflict.of === preview ? conflict : null;
  const audience = current?.audience ?? preview;

  async function send<T>(token: string, run: (token: string) => Promise<T>): Promise<GuardedSend<T>> {
    const shown = audience;
    try {
      return { status: 'sent', value: await run(token) };
    } catch (err) {
      const fresh = audienceConflict(err);
      if (!fresh) throw err;
      setConflict({ ...fresh, previous: shown?.recipients ?? 0, of: preview });
      return { status: 'refreshed' };
    }
  }

  return {
    audience,
    refreshed: current ? { previous: current.previous, message: current.message } : null,
    send,
    reset: () => setConflict(null),
  };
}

export interface SendConfirmationProps {
  /** The audience to confirm (its token is what onConfirm gets); undefined while it is being counted. */
  audience: AlertAudience | undefined;
  /** The preview failed: its message and "Count again" (onRetry). There is no sending without counts. */
  previewError?: unknown;
  onRetry: () => void;
  /** The words before the number on the button: "Send to" gives "Send to 1,204 people" ("Send to nobody"). */
  actionLabel?: string;
  /** The heading; "Who this alert will reach" by default. */
  title?: string;
  /** The summary's first words: "This alert will reach" by default. */
  lead?: string;
  /** No area, on purpose: the first confirmation leads to a second one that says "everyone, everywhere". */
  everyone?: boolean;
  /** The names of the area's parts, for the counts by target (issue #42). */
  partNames?: string[];
  /** Set when a 409 replaced the counts (useSendGuard's `refreshed`): says what changed and asks again. */
  refreshed?: AudienceRefreshed | null;
  /** The send is under way: every button waits. */
  sending: boolean;
  /** The admin confirmed `token`'s audience (and, for everyone, its second step). */
  onConfirm: (token: string) => void;
  onCancel: () => void;
  cancelLabel?: string;
  headingLevel?: 2 | 3;
  /** A modal dialog (Escape cancels) rather than a section in the page's flow. */
  modal?: boolean;
  /** More about this send, between the counts and the buttons (e.g. when a scheduled send goes out). */
  children?: ReactNode;
}

/** The confirmation itself: the counts, then the only button that sends. It takes the focus when it opens. */
export function SendConfirmation({
  audience,
  previewError,
  onRetry,
  actionLabel = 'Send to',
  title = 'Who this alert will reach',
  lead,
  everyone = false,
  partNames,
  refreshed = null,
  sending,
  onConfirm,
  onCancel,
  cancelLabel = 'Cancel',
  headingLevel = 3,
  modal = false,
  children,
}: SendConfirmationProps) {
  const id = useId();
  const heading = useRef<HTMLHeadingElement>(null);
  const secondStep = useRef<HTMLParagraphElement>(null);
  // The second step for everyone belongs to the counts it was reached with: new counts (a 409) start over.
  const [everyoneFor, setEveryoneFor] = useState<string | null>(null);
  const askingEveryone = everyone && audience !== undefined && everyoneFor === audience.token;
  const Heading = `h${headingLevel}` as const;
  const failed = Boolean(previewError) && !refreshed;
  const ready = !failed && audience !== undefined;

  useEffect(() => {
    // As a dialog, the focus goes back where it was (the button that opened it) when it closes.
    const opener = modal ? (document.activeElement as HTMLElement | null) : null;
    heading.current?.focus();
    return () => opener?.focus?.();
  }, [modal]);
  useEffect(() => {
    if (askingEveryone) secondStep.current?.focus();
  }, [askingEveryone]);
  useEffect(() => {
    if (!modal) return;
    const onKey = (e: KeyboardEvent) => e.key === 'Escape' && !sending && onCancel();
    document.addEventListener('keydown', onKey);
    return () => document.removeEventListener('keydown', onKey);
  }, [modal, sending, onCancel]);

  const count = audience && (audience.recipients === 0 ? 'nobody' : people(audience.recipients));

  function confirm() {
    if (sending || !audience) return;
    if (everyone && !askingEveryone) return setEveryoneFor(audience.token);
    onConfirm(audience.token);
  }

  const body = (
    <section className="audience-confirm" aria-labelledby={`${id}-title`} data-testid="send-confirmation">
      <Heading id={`${id}-title`} ref={heading} tabIndex={-1}>
        {title}
      </Heading>
      {refreshed && audience && (
        <div role="alert" className="audience-warning audience-refreshed">
          <p>
            <strong>
              The audience changed: it is now {people(audience.recipients)} (you confirmed {formatCount(refreshed.previous)}).
            </strong>{' '}
            {refreshed.message}
          </p>
          <p>Nothing was sent. Check the new numbers and confirm again.</p>
        </div>
      )}
      {failed ? (
        <div role="alert" className="audience-warning">
          <p>
            <strong>Could not count who this alert will reach.</strong> {errorMessage(previewError, 'The preview failed.')}
          </p>
          <p>Nothing is sent without knowing whom it reaches: count again.</p>
        </div>
      ) : ready ? (
        <AudienceSummary audience={audience} lead={lead} partNames={partNames} />
      ) : (
        <p className="row">
          <Spinner size="sm" label="Counting recipients" />
          <span aria-hidden="true">Counting who this alert will reach...</span>
        </p>
      )}
      {ready && everyone && (
        <p className="audience-warning" ref={secondStep} tabIndex={-1} role={askingEveryone ? 'alert' : undefined}>
          <strong>Everyone, everywhere:</strong> this alert has no area. It goes to every person whose preferences match, wherever they are.
          {askingEveryone && ` Confirm once more that all ${count} should receive it.`}
        </p>
      )}
      {children}
      <div className="audience-actions">
        <button type="button" className="btn btn-outline" onClick={askingEveryone ? () => setEveryoneFor(null) : onCancel} disabled={sending}>
          {askingEveryone ? 'Back' : cancelLabel}
        </button>
        <div className="row">
          {failed && (
            <button type="button" className="btn btn-outline" onClick={onRetry} disabled={sending}>
              Count again
            </button>
          )}
          {!failed && (
            <button
              // A new element for each step: a double click on the first cannot also press the second.
              key={askingEveryone ? 'everyone' : 'confirm'}
              type="button"
              className="btn btn-primary"
              onClick={confirm}
              disabled={sending || !ready}
            >
              {sending ? (
                <>
                  <Spinner size="sm" label="Sending" /> Sending...
                </>
              ) : !ready ? (
                'Counting recipients...'
              ) : askingEveryone ? (
                `Yes, ${actionLabel.charAt(0).toLowerCase()}${actionLabel.slice(1)} everyone, everywhere: ${count}`
              ) : (
                `${actionLabel} ${count}`
              )}
            </button>
          )}
        </div>
      </div>
    </section>
  );

  if (!modal) return body;
  return (
    <div className="modal-backdrop" role="presentation">
      <div className="modal send-confirmation-modal" role="dialog" aria-modal="true" aria-labelledby={`${id}-title`}>
        {body}
      </div>
    </div>
  );
}

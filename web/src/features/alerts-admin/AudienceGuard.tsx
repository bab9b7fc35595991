import { useCallback, useEffect, useRef, useState, type ReactNode } from 'react';
import type { AlertAudience } from '@beacon/contracts';
import { audienceConflict, SendConfirmation, type AudienceRefreshed } from './SendConfirmation';

/**
 * The audience guard of the alert page's sending actions (issue #38): Send Now of a draft, its schedule, an update, the
 * all-clear, Retry failed and Send to the unreached. Each first asks the server whom it would reach or tell (a preview
 * with a signed token), shows that number in a confirmation (SendConfirmation), and sends only on it, with the token;
 * when the audience moved since, the server answers 409 with the fresh count, which the confirmation shows and asks
 * about again.
 */

export { people } from './AudienceSummary';

/** One guarded action: the preview and the send made from the same values, and what to do with the outcome. */
export interface GuardedAction<T> {
  preview: () => Promise<AlertAudience>;
  send: (audienceToken: string) => Promise<T>;
  onSent: (result: T, audience: AlertAudience) => void;
  /** Any refusal but the guard's (which asks again): the confirmation closes and the screen shows it. */
  onError: (err: unknown) => void;
}

export type GuardState =
  | { phase: 'closed' }
  | { phase: 'counting' }
  | { phase: 'preview_failed'; error: unknown }
  | { phase: 'confirming' | 'sending'; audience: AlertAudience; refreshed: AudienceRefreshed | null };

/**
 * The guard's steps: open (count), confirm (send with the token), asked again on a 409 with the new count. The action
 * given to `open` is kept as it was: what is sent is exactly what was counted.
 */
export function useAudienceGuard() {
  const [state, setState] = useState<GuardState>({ phase: 'closed' });
  const action = useRef<GuardedAction<unknown> | null>(null);
  const live = useRef(true);
  useEffect(() => {
    live.current = true;
    return () => {
      live.current = false;
    };
  }, []);
  const set = useCallback((s: GuardState) => {
    if (live.current) setState(s);
  }, []);

  const count = useCallback(
    async (a: GuardedAction<unknown>) => {
      set({ phase: 'counting' });
      try {
        const audience = await a.preview();
        if (action.current === a) set({ phase: 'confirming', audience, refreshed: null });
      } catch (error) {
        if (action.current === a) set({ phase: 'preview_failed', error });
      }
    },
    [set],
  );

  const open = useCallback(
    <T,>(a: GuardedAction<T>) => {
      action.current = a as GuardedAction<unknown>;
      void count(action.current);
    },
    [count],
  );

  const close = useCallback(() => {
    action.current = null;
    set({ phase: 'closed' });
  }, [set]);

  const confirm = useCallback(async () => {
    const a = action.current;
    if (!a || state.phase !== 'confirming') return;
    const { audience } = state;
    set({ phase: 'sending', audience, refreshed: null });
    try {
      const result = await a.send(audience.token);
      if (action.current !== a) return;
      action.current = null;
      set({ phase: 'closed' });
      a.onSent(result, audience);
    } catch (err) {
      if (action.current !== a) return;
      const fresh = audienceConflict(err);
      if (fresh) {
        set({ phase: 'confirming', audience: fresh.audience, refreshed: { previous: audience.recipients, message: fresh.message } });
        return;
      }
      action.current = null;
      set({ phase: 'closed' });
      a.onError(err);
    }
  }, [state, set]);

  const recount = useCallback(() => {
    if (action.current) void count(action.current);
  }, [count]);

  return { state, open, close, confirm, recount };
}

export type AudienceGuard = ReturnType<typeof useAudienceGuard>;

interface GuardedSendDialogProps {
  guard: AudienceGuard;
  title: string;
  /** The words before the number on the only button that sends: "Send update to" gives "Send update to 40 people". */
  actionLabel: string;
  /** The summary's first words ("This update tells"). */
  lead?: string;
  /** A draft without an area going to everyone: SendConfirmation's second, separate confirmation. */
  everyone?: boolean;
  /** The names of the area's parts, for the counts by target (issue #42). */
  partNames?: string[];
  /** What is about to go out (the text per language and channel, the area, the time): shown under the counts. */
  children?: ReactNode;
}

/** The confirmation of one guarded action, as a modal dialog; nothing while the guard is closed. */
export function GuardedSendDialog({ guard, title, actionLabel, lead, everyone, partNames, children }: GuardedSendDialogProps) {
  const { state } = guard;
  if (state.phase === 'closed') return null;
  const counted = state.phase === 'confirming' || state.phase === 'sending' ? state : null;
  return (
    <SendConfirmation
      modal
      headingLevel={2}
      title={title}
      actionLabel={actionLabel}
      lead={lead}
      everyone={everyone}
      partNames={partNames}
      audience={counted?.audience}
      refreshed={counted?.refreshed ?? null}
      previewError={state.phase === 'preview_failed' ? state.error : undefined}
      onRetry={guard.recount}
      sending={state.phase === 'sending'}
      onConfirm={() => void guard.confirm()}
      onCancel={guard.close}
    >
      {children}
    </SendConfirmation>
  );
}

import { useCallback } from 'react';
import { useNavigate } from 'react-router-dom';
import toast, { type Toast } from 'react-hot-toast';
import type { AdminAlert, Incident } from '@beacon/contracts';
import { useAppDispatch } from '@/app/hooks';
import type { AppDispatch } from '@/app/store';
import { moderationApi } from './moderation.api';
import { INFO_TOAST_ICON } from '@/common/icons';

/** The incident type the alerts service turns into a draft critical alert once verified. */
export const DRAFT_ALERT_INCIDENT_TYPE: Incident['type'] = 'wrong-way-driver';

/**
 * Pauses before each look for the draft, in ms: the alerts service usually has it within a second; after about
 * 5 s in all the screen stops looking and says where to find it.
 */
export const DRAFT_LOOKUP_DELAYS_MS = [0, 250, 500, 750, 1000, 1250, 1250];

export const VERIFIED_TOASTS = {
  verified: 'Report verified',
  rejected: 'Report rejected',
  lookingForDraft: 'Report verified. Looking for the draft critical alert it creates…',
  draftPending: 'Report verified. The draft alert is being prepared; find it under Alerts.',
  reviewDraft: 'Review the draft alert',
} as const;

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** The alert a verified incident created, asked for a few times as the alerts service creates it asynchronously; null if it has not appeared. */
export async function findDraftAlert(
  dispatch: AppDispatch,
  incidentId: string,
  delaysMs: readonly number[] = DRAFT_LOOKUP_DELAYS_MS,
): Promise<AdminAlert | null> {
  for (const delay of delaysMs) {
    if (delay > 0) await sleep(delay);
    const { data } = await dispatch(moderationApi.endpoints.draftAlertForIncident.initiate(incidentId, { subscribe: false, forceRefetch: true }));
    // an error (alerts service unreachable) is one more try that found nothing
    const alert = data?.items[0];
    if (alert) return alert;
  }
  return null;
}

/** What the found alert is, in its own terms: a draft as expected, or whatever an admin has made of it since. */
function createdText(alert: AdminAlert): string {
  return alert.status === 'draft'
    ? `Report verified. A draft ${alert.severity} alert was created.`
    : `Report verified. Its ${alert.severity} alert was created and is now ${alert.status}.`;
}

function DraftCreated({ t, alert, open }: { t: Toast; alert: AdminAlert; open: (path: string) => void }) {
  const path = `/admin/alerts/${encodeURIComponent(alert.id)}`;
  return (
    <span className="draft-toast">
      <span>{createdText(alert)}</span>
      {/* a real link (new tab works), followed inside the app: the toaster sits outside the router */}
      <a
        href={path}
        onClick={(e) => {
          e.preventDefault();
          toast.dismiss(t.id);
          open(path);
        }}
      >
        {alert.status === 'draft' ? VERIFIED_TOASTS.reviewDraft : 'Open the alert'}
      </a>
    </span>
  );
}

/**
 * Tells the admin what verifying did. A verified wrong-way driver makes the alerts service create a draft
 * critical alert shortly after: the toast says so only once the draft is found, with a link to it.
 */
export function useAnnounceVerified() {
  const dispatch = useAppDispatch();
  const navigate = useNavigate();
  return useCallback(
    async (report: Incident) => {
      if (report.type !== DRAFT_ALERT_INCIDENT_TYPE) {
        toast.success(VERIFIED_TOASTS.verified);
        return;
      }
      const id = toast.loading(VERIFIED_TOASTS.lookingForDraft);
      const alert = await findDraftAlert(dispatch, report.id);
      if (alert) {
        toast.success((t) => <DraftCreated t={t} alert={alert} open={(path) => void navigate(path)} />, { id, duration: 15_000 });
      } else {
        toast(VERIFIED_TOASTS.draftPending, { id, icon: INFO_TOAST_ICON, duration: 10_000 });
      }
    },
    [dispatch, navigate],
  );
}

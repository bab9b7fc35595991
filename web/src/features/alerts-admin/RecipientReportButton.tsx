import { useState } from 'react';
import toast from 'react-hot-toast';
import { accessToken } from '@/features/auth/auth-client';

/**
 * Downloads the alert's per-recipient report (GET /api/alerts/:id/deliveries.csv). A plain link would not carry
 * the access token, so the file is fetched with it and handed to the browser as a download.
 */
export function RecipientReportButton({ alertId }: { alertId: string }) {
  const [busy, setBusy] = useState(false);

  async function download() {
    setBusy(true);
    try {
      const token = await accessToken();
      const res = await fetch(`/api/alerts/${encodeURIComponent(alertId)}/deliveries.csv`, { headers: token ? { authorization: `Bearer ${token}` } : {} });
      if (!res.ok)
        throw new Error(((await res.json().catch(() => null)) as { message?: string } | null)?.message ?? `The report could not be made (${res.status})`);
      const url = URL.createObjectURL(await res.blob());
      const link = document.createElement('a');
      link.href = url;
      link.download = `alert-${alertId}-recipients.csv`;
      link.click();
      URL.revokeObjectURL(url);
    } catch (e) {
      toast.error((e as Error).message || 'The report could not be downloaded');
    } finally {
      setBusy(false);
    }
  }

  return (
    <button type="button" className="btn btn-outline" onClick={() => void download()} disabled={busy}>
      {busy ? 'Preparing report...' : 'Recipient report (CSV)'}
    </button>
  );
}

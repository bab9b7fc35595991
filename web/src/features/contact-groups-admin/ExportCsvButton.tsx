import { useState } from 'react';
import toast from 'react-hot-toast';
import { accessToken } from '@/features/auth/auth-client';

/**
 * Downloads the group's CSV export. A plain link would not carry the access token, so the file is fetched with it and
 * handed to the browser as a download. (The same as alerts-admin's CsvDownloadButton, which this feature may not
 * import: no feature imports an admin console feature, see scripts/eslint-boundaries.mjs.)
 */
export function ExportCsvButton({ url, fileName, label }: { url: string; fileName: string; label: string }) {
  const [busy, setBusy] = useState(false);

  async function download() {
    setBusy(true);
    try {
      const token = await accessToken();
      const res = await fetch(url, { headers: token ? { authorization: `Bearer ${token}` } : {} });
      if (!res.ok)
        throw new Error(((await res.json().catch(() => null)) as { message?: string } | null)?.message ?? `The file could not be made (${res.status})`);
      const blobUrl = URL.createObjectURL(await res.blob());
      const link = document.createElement('a');
      link.href = blobUrl;
      link.download = fileName;
      link.click();
      URL.revokeObjectURL(blobUrl);
    } catch (e) {
      toast.error((e as Error).message || 'The file could not be downloaded');
    } finally {
      setBusy(false);
    }
  }

  return (
    <button type="button" className="btn btn-outline" onClick={() => void download()} disabled={busy}>
      {busy ? 'Preparing...' : label}
    </button>
  );
}

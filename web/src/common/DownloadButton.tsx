import { useState } from 'react';
import toast from 'react-hot-toast';

export interface DownloadButtonProps {
  url: string;
  fileName: string;
  label: string;
  /** The label while the file is being made. */
  busyLabel: string;
  /** Said when the server gives no message of its own ({status} is its HTTP status) or the download fails. */
  failedLabel: (status: number | null) => string;
  /** The access token to send, null for none: common/ may not reach into the auth feature. */
  token: () => Promise<string | null>;
  className?: string;
}

/**
 * Downloads a file the server makes (a CSV report, an export). A plain link would not carry the access token, so the
 * file is fetched with it and handed to the browser as a download; a refusal is toasted with the server's message.
 */
export function DownloadButton({ url, fileName, label, busyLabel, failedLabel, token, className = 'btn btn-outline' }: DownloadButtonProps) {
  const [busy, setBusy] = useState(false);

  async function download() {
    setBusy(true);
    try {
      const bearer = await token();
      const res = await fetch(url, { headers: bearer ? { authorization: `Bearer ${bearer}` } : {} });
      if (!res.ok) throw new Error(((await res.json().catch(() => null)) as { message?: string } | null)?.message ?? failedLabel(res.status));
      const blobUrl = URL.createObjectURL(await res.blob());
      const link = document.createElement('a');
      link.href = blobUrl;
      link.download = fileName;
      link.click();
      URL.revokeObjectURL(blobUrl);
    } catch (e) {
      toast.error((e as Error).message || failedLabel(null));
    } finally {
      setBusy(false);
    }
  }

  return (
    <button type="button" className={className} onClick={() => void download()} disabled={busy}>
      {busy ? busyLabel : label}
    </button>
  );
}

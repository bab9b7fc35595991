import { DownloadButton } from '@/common/DownloadButton';
import { accessToken } from '@/features/auth/auth-client';

/** The staff console's words for a file it downloads (the console stays English). */
const CONSOLE_DOWNLOAD_WORDS = {
  busyLabel: 'Preparing...',
  failedLabel: (status: number | null) => (status === null ? 'The file could not be downloaded' : `The file could not be made (${status})`),
};

/** Downloads a CSV the server makes (the per-recipient report, the whole history export) with the access token. */
export function CsvDownloadButton(props: { url: string; fileName: string; label: string; className?: string }) {
  return <DownloadButton {...props} {...CONSOLE_DOWNLOAD_WORDS} token={accessToken} />;
}

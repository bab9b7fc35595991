import { DownloadButton } from '@/common/DownloadButton';
import { accessToken } from '@/features/auth/auth-client';

/** Downloads the group's CSV export with the access token, in the console's words (alerts-admin's may not be imported here). */
export function ExportCsvButton(props: { url: string; fileName: string; label: string }) {
  return (
    <DownloadButton
      {...props}
      busyLabel="Preparing..."
      failedLabel={(status) => (status === null ? 'The file could not be downloaded' : `The file could not be made (${status})`)}
      token={accessToken}
    />
  );
}

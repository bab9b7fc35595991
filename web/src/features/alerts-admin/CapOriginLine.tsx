import type { AdminAlert } from '@beacon/contracts';
import { useCapOriginQuery } from './alerts-admin.api';

const isWebUrl = (u: string) => /^https?:\/\//i.test(u);

/** An alert made from an official CAP message: which source, which message, and a link to the original. */
export function CapOriginLine({ alert }: { alert: Pick<AdminAlert, 'id' | 'source' | 'lat'> }) {
  const { data, isError } = useCapOriginQuery(alert.id, { skip: alert.source !== 'cap' });
  if (alert.source !== 'cap') return null;
  if (isError) return <span>Official warning (CAP)</span>;
  if (!data) return <span>Official warning (CAP)…</span>;
  return (
    <span className="stack">
      <span>
        Official warning (CAP) from <strong>{data.sourceName}</strong>
        {data.url && isWebUrl(data.url) && (
          <>
            {' · '}
            <a href={data.url} target="_blank" rel="noopener noreferrer">
              Original message
            </a>
          </>
        )}
      </span>
      <span className="small muted">
        {data.sender} · {data.identifier} · sent {data.sent}
      </span>
      {alert.lat === null && <span className="small">The message names no area Beacon can draw: give this draft an area before sending it.</span>}
    </span>
  );
}

import { useId } from 'react';
import type { ContactGroupAuditEntry } from '@beacon/contracts';
import { Spinner } from '@/common/Spinner';
import { formatDateTime } from '@/common/time';
import { LoadError } from '@/features/alerts';
import { useContactGroupAuditQuery } from './contact-groups.api';

const text = (v: unknown) => (typeof v === 'string' && v.trim() ? v.trim() : null);
const count = (v: unknown) => (typeof v === 'number' && Number.isFinite(v) ? v : 0);
const record = (v: unknown): Record<string, unknown> => (v && typeof v === 'object' ? (v as Record<string, unknown>) : {});

/** Who a membership change was about, as the record names them: "Ana Ruiz (+15551230001)", a user by e-mail. */
function subject(d: Record<string, unknown>): string {
  const name = text(d.name);
  const reach = text(d.phone) ?? text(d.email);
  const who = name && reach ? `${name} (${reach})` : (name ?? reach ?? 'a member');
  return d.kind === 'user' ? `Beacon user ${who}` : who;
}

/** A group's rename or new description: "Renamed from “Road crew” to “Road crews”", "Description changed". */
function changeText(d: Record<string, unknown>): string {
  const before = record(d.before);
  const after = record(d.after);
  const parts: string[] = [];
  if (text(after.name) && after.name !== before.name) parts.push(`Renamed from “${text(before.name) ?? ''}” to “${text(after.name)}”`);
  if ('description' in after && after.description !== before.description) parts.push(parts.length ? 'description changed' : 'Description changed');
  return parts.length ? parts.join(', ') : 'Group saved unchanged';
}

/** Any other detail the record keeps, as "key: value" (so an action this screen does not know still says what it did). */
function otherDetails(d: Record<string, unknown>): string {
  const parts = Object.entries(d)
    .filter(([, v]) => typeof v === 'string' || typeof v === 'number' || typeof v === 'boolean')
    .map(([k, v]) => `${k}: ${String(v)}`);
  return parts.length ? ` (${parts.join(', ')})` : '';
}

/** One audit entry in plain words, without its time: "Added Ana Ruiz (+15551230001) by admin@beacon.local". */
export function auditText(e: ContactGroupAuditEntry): string {
  const d = record(e.details);
  const by = e.actorEmail ? ` by ${e.actorEmail}` : ' (Beacon)';
  switch (e.action) {
    case 'group_created':
      return `Group created as “${text(d.name) ?? ''}”${by}`;
    case 'group_updated':
      return `${changeText(d)}${by}`;
    case 'group_deleted':
      return `Group deleted${by}`;
    case 'member_added':
      return `Added ${subject(d)}${by}`;
    case 'member_removed':
      return `Removed ${subject(d)}${by}`;
    case 'import_applied':
      return `Imported a CSV file: ${count(d.created)} created, ${count(d.updated)} updated, ${count(d.unchanged)} unchanged, ${count(d.rejected)} rejected rows skipped${by}`;
    default: {
      const what = String(e.action).replace(/_/g, ' ');
      return `${what.charAt(0).toUpperCase()}${what.slice(1)}${otherDetails(d)}${by}`;
    }
  }
}

/** What was done to the group and its membership, newest first, by whom (issue #42: membership edits are audited). */
export function GroupAudit({ groupId }: { groupId: string }) {
  const id = useId();
  const { data, isLoading, isError, refetch } = useContactGroupAuditQuery(groupId);
  // the server answers newest first
  const entries = data?.items ?? [];
  return (
    <section className="card" aria-labelledby={`${id}-title`}>
      <h2 id={`${id}-title`}>Membership changes</h2>
      {isLoading ? (
        <Spinner label="Loading the changes" />
      ) : isError || !data ? (
        <LoadError message="Failed to load the changes" onRetry={refetch} />
      ) : entries.length === 0 ? (
        <p className="muted">No changes recorded yet.</p>
      ) : (
        <>
          {data.total > entries.length && (
            <p className="muted small">
              The latest {entries.length} of {data.total} changes.
            </p>
          )}
          <ol className="group-audit" aria-labelledby={`${id}-title`}>
            {entries.map((e) => (
              <li key={e.id}>
                <time dateTime={e.at} className="muted small">
                  {formatDateTime(e.at)}
                </time>{' '}
                <span>{auditText(e)}</span>
              </li>
            ))}
          </ol>
        </>
      )}
    </section>
  );
}

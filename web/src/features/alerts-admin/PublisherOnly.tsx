import type { ReactNode } from 'react';
import { Link } from 'react-router-dom';
import { ROLE_LABELS } from '@beacon/contracts';
import { useAppSelector } from '@/app/hooks';
import { selectCanPublish, selectRole } from '@/features/auth/auth.slice';

/**
 * A compose screen's content for those who may publish; for a viewer, what their role allows instead. The route admits
 * publishers only (RequireRole) and the server refuses a viewer's sends (403): this keeps the screen itself from
 * offering a form that cannot go out wherever it is mounted.
 */
export function PublisherOnly({ title, children }: { title: string; children: ReactNode }) {
  const role = useAppSelector(selectRole);
  const canPublish = useAppSelector(selectCanPublish);
  if (canPublish) return <>{children}</>;
  return (
    <section className="page" aria-labelledby="publisher-only-title">
      <header className="page-header">
        <h1 id="publisher-only-title">{title}</h1>
      </header>
      <div className="card" role="note">
        <p>
          <strong>Your role{role ? ` (${ROLE_LABELS[role]})` : ''} can read the console but not send alerts.</strong> Writing and sending alerts needs the
          Publisher role: ask an administrator.
        </p>
        <p>
          <Link to="/admin/alerts">Back to Alerts</Link>
        </p>
      </div>
    </section>
  );
}

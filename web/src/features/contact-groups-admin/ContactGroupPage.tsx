import { Link, useParams } from 'react-router-dom';
import { Spinner } from '@/common/Spinner';
import { LoadError } from '@/features/alerts';
import { AddMemberForms } from './AddMemberForms';
import { contactGroupExportUrl, useContactGroupQuery } from './contact-groups.api';
import { ContactImport } from './ContactImport';
import { ExportCsvButton } from './ExportCsvButton';
import { GroupAudit } from './GroupAudit';
import { MembersSection } from './MembersSection';
import { ReadOnlyNote, useCanEditGroups } from './ui';
import './contact-groups.css';

/** A file name from the group's name: letters, digits and dashes. */
const fileName = (name: string) =>
  `contact-group-${
    name
      .toLowerCase()
      .replace(/[^a-z0-9]+/g, '-')
      .replace(/^-|-$/g, '') || 'export'
  }.csv`;

/** /admin/contact-groups/:id: one group's members, their import and export, and what was changed. */
export function ContactGroupPage() {
  const { id = '' } = useParams();
  const canEdit = useCanEditGroups();
  const { data: group, isLoading, isError, error, refetch } = useContactGroupQuery(id, { skip: !id });

  if (isLoading) return <Spinner label="Loading the contact group" />;
  if (isError || !group) {
    const missing = (error as { statusCode?: number } | undefined)?.statusCode === 404;
    return (
      <section className="page" aria-labelledby="contact-group-title">
        <h1 id="contact-group-title">Contact Group</h1>
        <LoadError message={missing ? 'This contact group was not found. It may have been deleted.' : 'Failed to load the contact group'} onRetry={refetch} />
        <p>
          <Link to="/admin/contact-groups">Back to Contact Groups</Link>
        </p>
      </section>
    );
  }

  return (
    <section className="page contact-groups" aria-labelledby="contact-group-title">
      <p className="small">
        <Link to="/admin/contact-groups">Back to Contact Groups</Link>
      </p>
      <header className="page-header">
        <div>
          <h1 id="contact-group-title">{group.name}</h1>
          {group.description && <p className="muted">{group.description}</p>}
          <p className="muted small">
            {group.memberCount} {group.memberCount === 1 ? 'member' : 'members'}, of whom {group.externalCount} external{' '}
            {group.externalCount === 1 ? 'contact' : 'contacts'}
          </p>
        </div>
        <div className="contact-export">
          <ExportCsvButton url={contactGroupExportUrl(group.id)} fileName={fileName(group.name)} label="Export CSV" />
          <p className="muted small">The file lists the external contacts, as the import reads them; Beacon users are not in it.</p>
        </div>
      </header>
      {!canEdit && <ReadOnlyNote />}
      <MembersSection groupId={group.id} canEdit={canEdit} />
      {canEdit && <AddMemberForms groupId={group.id} />}
      {canEdit && <ContactImport groupId={group.id} />}
      <GroupAudit groupId={group.id} />
    </section>
  );
}

import { useCallback, useState } from 'react';
import { Link } from 'react-router-dom';
import toast from 'react-hot-toast';
import type { ContactGroup } from '@beacon/contracts';
import { errorMessage } from '@/app/api';
import { ConfirmDialog } from '@/common/ConfirmDialog';
import { Spinner } from '@/common/Spinner';
import { formatDateTime } from '@/common/time';
import { LoadError } from '@/features/alerts';
import { useContactGroupsQuery, useCreateContactGroupMutation, useDeleteContactGroupMutation, useUpdateContactGroupMutation } from './contact-groups.api';
import { GroupFormDialog } from './GroupFormDialog';
import { people, ReadOnlyNote, useCanEditGroups } from './ui';
import './contact-groups.css';

type Modal = { kind: 'create' } | { kind: 'rename'; group: ContactGroup } | { kind: 'delete'; group: ContactGroup } | null;

/** /admin/contact-groups: the named lists of people an alert can reach wherever they live (issue #42). */
export function ContactGroupsPage() {
  const canEdit = useCanEditGroups();
  const { data: groups, isLoading, isError, refetch } = useContactGroupsQuery();
  const [create] = useCreateContactGroupMutation();
  const [update] = useUpdateContactGroupMutation();
  const [remove] = useDeleteContactGroupMutation();
  const [modal, setModal] = useState<Modal>(null);
  const close = useCallback(() => setModal(null), []);

  async function confirmDelete(group: ContactGroup) {
    close();
    try {
      await remove(group.id).unwrap();
      toast.success(`Group “${group.name}” deleted`);
    } catch (e) {
      toast.error(errorMessage(e, 'The group could not be deleted.'));
    }
  }

  return (
    <section className="page contact-groups" aria-labelledby="contact-groups-title">
      <header className="page-header">
        <div>
          <h1 id="contact-groups-title">Contact Groups</h1>
          <p className="muted">Lists of people an alert can reach wherever they live: Beacon users and contacts without an account.</p>
        </div>
        {canEdit && (
          <button type="button" className="btn btn-primary" onClick={() => setModal({ kind: 'create' })}>
            + New Group
          </button>
        )}
      </header>
      {!canEdit && <ReadOnlyNote />}
      {isLoading ? (
        <Spinner label="Loading contact groups" />
      ) : isError || !groups ? (
        <LoadError message="Failed to load contact groups" onRetry={refetch} />
      ) : groups.length === 0 ? (
        <p className="empty-state">No contact groups yet.</p>
      ) : (
        <div className="table-wrap card">
          <table>
            <caption className="visually-hidden">Contact groups</caption>
            <thead>
              <tr>
                <th scope="col">Group</th>
                <th scope="col">Description</th>
                <th scope="col">Members</th>
                <th scope="col">External contacts</th>
                <th scope="col">Last changed</th>
                {canEdit && <th scope="col">Actions</th>}
              </tr>
            </thead>
            <tbody>
              {groups.map((g) => (
                <tr key={g.id}>
                  <th scope="row">
                    <Link to={`/admin/contact-groups/${encodeURIComponent(g.id)}`}>{g.name}</Link>
                  </th>
                  <td>{g.description}</td>
                  <td>{g.memberCount}</td>
                  <td>{g.externalCount}</td>
                  <td>{formatDateTime(g.updatedAt)}</td>
                  {canEdit && (
                    <td>
                      <div className="row">
                        <button
                          type="button"
                          className="btn btn-outline btn-sm"
                          aria-label={`Rename ${g.name}`}
                          onClick={() => setModal({ kind: 'rename', group: g })}
                        >
                          Rename
                        </button>
                        <button
                          type="button"
                          className="btn btn-danger btn-sm"
                          aria-label={`Delete ${g.name}`}
                          onClick={() => setModal({ kind: 'delete', group: g })}
                        >
                          Delete
                        </button>
                      </div>
                    </td>
                  )}
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}

      {modal?.kind === 'create' && (
        <GroupFormDialog
          title="New Contact Group"
          submitLabel="Create Group"
          onClose={close}
          onSubmit={async (input) => {
            const group = await create(input).unwrap();
            toast.success(`Group “${group.name}” created`);
          }}
        />
      )}
      {modal?.kind === 'rename' && (
        <GroupFormDialog
          title={`Rename ${modal.group.name}`}
          submitLabel="Save"
          initial={{ name: modal.group.name, description: modal.group.description }}
          onClose={close}
          onSubmit={async (changes) => {
            await update({ id: modal.group.id, changes }).unwrap();
            toast.success('Group saved');
          }}
        />
      )}
      {modal?.kind === 'delete' && (
        <ConfirmDialog
          title={`Delete ${modal.group.name}?`}
          message={`The group and its list of ${people(modal.group.memberCount)} are deleted; Beacon accounts stay as they are. Alerts already sent are not affected. This cannot be undone.`}
          confirmLabel="Delete Group"
          cancelLabel="Keep Group"
          onConfirm={() => void confirmDelete(modal.group)}
          onCancel={close}
        />
      )}
    </section>
  );
}

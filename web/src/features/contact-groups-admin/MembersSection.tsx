import { useCallback, useEffect, useId, useState, type FormEvent } from 'react';
import toast from 'react-hot-toast';
import { LANGUAGE_LABELS, type ContactGroupMember } from '@beacon/contracts';
import { errorMessage } from '@/app/api';
import { ConfirmDialog } from '@/common/ConfirmDialog';
import { Spinner } from '@/common/Spinner';
import { formatDateTime } from '@/common/time';
import { LoadError } from '@/features/alerts';
import { useContactGroupMembersQuery, useRemoveContactGroupMemberMutation } from './contact-groups.api';
import { Pager } from './ui';

export const MEMBERS_PAGE_SIZE = 50;

const NONE = '—';

/** A member's row as the table shows it: a user's account has no phone or language of the group's to show. */
function cells(m: ContactGroupMember) {
  return m.kind === 'user'
    ? { kind: 'Beacon user', name: m.name ?? NONE, phone: NONE, email: m.email, language: NONE }
    : { kind: 'External contact', name: m.name, phone: m.phone ?? NONE, email: m.email ?? NONE, language: LANGUAGE_LABELS[m.language] ?? m.language };
}

const memberName = (m: ContactGroupMember) => (m.kind === 'user' ? (m.name ?? m.email) : m.name);

/** A group's members, searchable and paged; an admin removes one after confirming. */
export function MembersSection({ groupId, canEdit }: { groupId: string; canEdit: boolean }) {
  const id = useId();
  const [typed, setTyped] = useState('');
  const [search, setSearch] = useState('');
  const [page, setPage] = useState(1);
  const [removing, setRemoving] = useState<ContactGroupMember | null>(null);
  const { data, isLoading, isError, isFetching, refetch } = useContactGroupMembersQuery({ id: groupId, page, pageSize: MEMBERS_PAGE_SIZE, search });
  const [remove] = useRemoveContactGroupMemberMutation();
  const close = useCallback(() => setRemoving(null), []);
  // removing the last member of the last page leaves that page empty: show the one before
  const emptyPastFirst = !!data && data.items.length === 0 && page > 1;
  useEffect(() => {
    if (emptyPastFirst) setPage((p) => p - 1);
  }, [emptyPastFirst]);

  function submitSearch(e: FormEvent) {
    e.preventDefault();
    setSearch(typed.trim());
    setPage(1);
  }

  async function confirmRemove(member: ContactGroupMember) {
    close();
    try {
      await remove({ id: groupId, memberId: member.id }).unwrap();
      toast.success(`${memberName(member)} removed from the group`);
    } catch (e) {
      toast.error(errorMessage(e, 'The member could not be removed.'));
    }
  }

  const totalPages = data ? Math.max(1, Math.ceil(data.total / data.pageSize)) : 1;

  return (
    <section className="card" aria-labelledby={`${id}-title`}>
      <h2 id={`${id}-title`}>Members</h2>
      <form className="row contact-search" role="search" aria-label="Members" onSubmit={submitSearch}>
        <div className="field">
          <label htmlFor={`${id}-q`}>Search by name, phone or e-mail</label>
          <input id={`${id}-q`} type="search" value={typed} onChange={(e) => setTyped(e.target.value)} />
        </div>
        <button type="submit" className="btn btn-outline">
          Search
        </button>
        {search && (
          <button
            type="button"
            className="btn btn-ghost"
            onClick={() => {
              setTyped('');
              setSearch('');
              setPage(1);
            }}
          >
            Clear search
          </button>
        )}
      </form>
      {isLoading ? (
        <Spinner label="Loading members" />
      ) : isError || !data ? (
        <LoadError message="Failed to load the members" onRetry={refetch} />
      ) : data.items.length === 0 ? (
        <p className="empty-state" role="status">
          {search ? `No member matches “${search}”.` : 'No members yet.'}
        </p>
      ) : (
        <>
          <p className="muted small" role="status">
            {search
              ? `${data.total} ${data.total === 1 ? 'member matches' : 'members match'} “${search}”.`
              : `${data.total} ${data.total === 1 ? 'member' : 'members'}.`}
          </p>
          <div className="table-wrap" aria-busy={isFetching}>
            <table>
              <caption className="visually-hidden">Members</caption>
              <thead>
                <tr>
                  <th scope="col">Kind</th>
                  <th scope="col">Name</th>
                  <th scope="col">Phone</th>
                  <th scope="col">E-mail</th>
                  <th scope="col">Language</th>
                  <th scope="col">Added</th>
                  {canEdit && <th scope="col">Actions</th>}
                </tr>
              </thead>
              <tbody>
                {data.items.map((m) => {
                  const c = cells(m);
                  return (
                    <tr key={m.id}>
                      <td>{c.kind}</td>
                      <td>{c.name}</td>
                      <td>{c.phone}</td>
                      <td>{c.email}</td>
                      <td>{c.language}</td>
                      <td>{formatDateTime(m.addedAt)}</td>
                      {canEdit && (
                        <td>
                          <button type="button" className="btn btn-outline btn-sm" aria-label={`Remove ${memberName(m)}`} onClick={() => setRemoving(m)}>
                            Remove
                          </button>
                        </td>
                      )}
                    </tr>
                  );
                })}
              </tbody>
            </table>
          </div>
          <Pager label="Member pages" page={data.page} totalPages={totalPages} onPage={setPage} />
        </>
      )}
      {removing && (
        <ConfirmDialog
          title={`Remove ${memberName(removing)}?`}
          message={
            removing.kind === 'user'
              ? 'They no longer receive the alerts sent to this group. Their Beacon account stays as it is.'
              : 'They no longer receive the alerts sent to this group.'
          }
          confirmLabel="Remove Member"
          cancelLabel="Keep Member"
          onConfirm={() => void confirmRemove(removing)}
          onCancel={close}
        />
      )}
    </section>
  );
}

import { ROLE_LABELS } from '@beacon/contracts';
import { useAppSelector } from '@/app/hooks';
import { selectIsAdmin, selectRole } from '@/features/auth/auth.slice';

/**
 * Contact groups are an administrator's to change (issue #42): every member of staff reads them, only an admin sees a
 * control that writes. The server refuses the others' writes (403) whatever the screen shows.
 */
export const useCanEditGroups = () => useAppSelector(selectIsAdmin);

/** What a member of staff who may only read is told in place of the controls. */
export function ReadOnlyNote() {
  const role = useAppSelector(selectRole);
  return (
    <p className="card muted" role="note">
      Your role{role ? ` (${ROLE_LABELS[role]})` : ''} can read contact groups. Changing them needs an administrator.
    </p>
  );
}

export const people = (n: number) => `${n} ${n === 1 ? 'member' : 'members'}`;
export const contacts = (n: number) => `${n} ${n === 1 ? 'contact' : 'contacts'}`;

/**
 * Previous / "Page X of Y" / Next under a paged list; nothing when there is one page. (Like alerts-admin's Pager, which
 * this feature may not import.)
 */
export function Pager({ label, page, totalPages, onPage }: { label: string; page: number; totalPages: number; onPage: (page: number) => void }) {
  if (totalPages <= 1) return null;
  return (
    <nav className="pager" aria-label={label}>
      <button type="button" className="btn btn-outline btn-sm" onClick={() => onPage(page - 1)} disabled={page <= 1}>
        Previous
      </button>
      <span>
        Page {page} of {totalPages}
      </span>
      <button type="button" className="btn btn-outline btn-sm" onClick={() => onPage(page + 1)} disabled={page >= totalPages}>
        Next
      </button>
    </nav>
  );
}

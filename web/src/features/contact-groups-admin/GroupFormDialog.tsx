import { useEffect, useId, useRef, useState, type FormEvent } from 'react';
import type { ContactGroupInput } from '@beacon/contracts';
import { errorMessage } from '@/app/api';

/**
 * The name and description of a group, new or renamed, in a dialog that takes focus, closes on Escape and gives focus
 * back to what opened it. The server's refusal (a name already taken, too long) stays in the dialog, announced.
 */
export function GroupFormDialog({
  title,
  submitLabel,
  initial,
  onSubmit,
  onClose,
}: {
  title: string;
  submitLabel: string;
  initial?: ContactGroupInput;
  /** Resolves when saved (the dialog then closes); rejects with the API error. */
  onSubmit: (input: ContactGroupInput) => Promise<unknown>;
  onClose: () => void;
}) {
  const id = useId();
  const nameRef = useRef<HTMLInputElement>(null);
  const closeRef = useRef(onClose);
  closeRef.current = onClose;
  const [name, setName] = useState(initial?.name ?? '');
  const [description, setDescription] = useState(initial?.description ?? '');
  const [busy, setBusy] = useState(false);
  const [problem, setProblem] = useState<string | null>(null);

  useEffect(() => {
    const opener = document.activeElement as HTMLElement | null;
    nameRef.current?.focus();
    const onKey = (e: KeyboardEvent) => e.key === 'Escape' && closeRef.current();
    document.addEventListener('keydown', onKey);
    return () => {
      document.removeEventListener('keydown', onKey);
      opener?.focus?.();
    };
  }, []);

  async function submit(e: FormEvent) {
    e.preventDefault();
    if (!name.trim()) {
      setProblem('Give the group a name.');
      nameRef.current?.focus();
      return;
    }
    setBusy(true);
    setProblem(null);
    try {
      await onSubmit({ name: name.trim(), description: description.trim() });
      closeRef.current();
    } catch (err) {
      setProblem(errorMessage(err, 'The group could not be saved.'));
      setBusy(false);
    }
  }

  return (
    <div className="modal-backdrop" onClick={(e) => e.target === e.currentTarget && onClose()}>
      <div className="modal" role="dialog" aria-modal="true" aria-labelledby={`${id}-title`}>
        <h2 id={`${id}-title`}>{title}</h2>
        <form onSubmit={(e) => void submit(e)} noValidate>
          <div className="field">
            <label htmlFor={`${id}-name`}>Name</label>
            <input
              id={`${id}-name`}
              ref={nameRef}
              value={name}
              onChange={(e) => setName(e.target.value)}
              required
              aria-invalid={problem !== null && !name.trim()}
              aria-describedby={problem ? `${id}-problem` : undefined}
            />
          </div>
          <div className="field">
            <label htmlFor={`${id}-description`}>Description (optional)</label>
            <textarea id={`${id}-description`} rows={3} value={description} onChange={(e) => setDescription(e.target.value)} />
          </div>
          {problem && (
            <p id={`${id}-problem`} className="field-error" role="alert">
              {problem}
            </p>
          )}
          <div className="row confirm-actions">
            <button type="button" className="btn btn-outline" onClick={onClose}>
              Cancel
            </button>
            <button type="submit" className="btn btn-primary" disabled={busy}>
              {busy ? 'Saving...' : submitLabel}
            </button>
          </div>
        </form>
      </div>
    </div>
  );
}

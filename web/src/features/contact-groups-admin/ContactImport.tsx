import { useId, useRef, useState, type ChangeEvent } from 'react';
import { CONTACT_CSV_COLUMNS, CONTACT_IMPORT_LIMITS, SUPPORTED_LANGUAGES, type ContactImportPreview, type ContactImportResult } from '@beacon/contracts';
import { errorMessage, type ApiError } from '@/app/api';
import { contacts } from './ui';
import { useImportContactsMutation, usePreviewContactImportMutation } from './contact-groups.api';

/** A file's text. FileReader, not Blob.text(): jsdom (the specs) lacks the latter. */
function readText(file: File): Promise<string> {
  return new Promise((resolve, reject) => {
    const reader = new FileReader();
    reader.onload = () => resolve(String(reader.result ?? ''));
    reader.onerror = () => reject(reader.error ?? new Error('The file could not be read.'));
    reader.readAsText(file);
  });
}

const COLUMN_TITLES: Record<(typeof CONTACT_CSV_COLUMNS)[number], string> = { name: 'Name', phone: 'Phone', email: 'E-mail', language: 'Language' };
const MAX_MB = CONTACT_IMPORT_LIMITS.maxBytes / (1024 * 1024);

/**
 * A 409 of the import: nothing was written, because the group's members changed since the preview
 * (import_preview_stale) or the preview expired or was applied already (import_preview_expired).
 */
const outdated = (e: unknown): 'stale' | 'expired' | null => {
  const err = e as Partial<ApiError> | null;
  if (err?.statusCode !== 409) return null;
  return err.code === 'import_preview_expired' ? 'expired' : 'stale';
};

const OUTDATED = {
  stale: 'The group changed since this preview, so nothing was imported. Preview the file again to see what the import would do now.',
  expired: 'This preview has expired or was already used, so nothing was imported. Preview the file again to see what the import would do now.',
};

type Stage =
  | { kind: 'idle' }
  | { kind: 'previewing' }
  | { kind: 'preview'; preview: ContactImportPreview }
  | { kind: 'importing'; preview: ContactImportPreview }
  | { kind: 'outdated'; why: 'stale' | 'expired' }
  | { kind: 'done'; result: ContactImportResult }
  | { kind: 'failed'; message: string; preview?: ContactImportPreview };

/**
 * CSV import in two steps (issue #42): the file is previewed (what would be created, updated, left unchanged, and each
 * rejected row with its line and reason; nothing written), then imported only when the admin confirms that preview.
 * The import applies exactly what was previewed, or nothing when the group changed since: then the file is previewed
 * again.
 */
export function ContactImport({ groupId }: { groupId: string }) {
  const id = useId();
  const fileRef = useRef<HTMLInputElement>(null);
  const [file, setFile] = useState<{ name: string; text: string } | null>(null);
  const [stage, setStage] = useState<Stage>({ kind: 'idle' });
  const [askPreview] = usePreviewContactImportMutation();
  const [applyImport] = useImportContactsMutation();

  /** Lets the same file be chosen again (once fixed): the input announces a change only for another value. */
  const clearInput = () => {
    if (fileRef.current) fileRef.current.value = '';
  };

  async function preview(text: string) {
    setStage({ kind: 'previewing' });
    try {
      setStage({ kind: 'preview', preview: await askPreview({ id: groupId, csv: text }).unwrap() });
    } catch (e) {
      clearInput();
      setStage({ kind: 'failed', message: errorMessage(e, 'The file could not be checked.') });
    }
  }

  async function choose(e: ChangeEvent<HTMLInputElement>) {
    const chosen = e.target.files?.[0];
    setFile(null);
    if (!chosen) return setStage({ kind: 'idle' });
    if (chosen.size > CONTACT_IMPORT_LIMITS.maxBytes) {
      clearInput();
      return setStage({ kind: 'failed', message: `${chosen.name} is larger than ${MAX_MB} MB. Split it into smaller files.` });
    }
    let text: string;
    try {
      text = await readText(chosen);
    } catch {
      clearInput();
      return setStage({ kind: 'failed', message: `${chosen.name} could not be read.` });
    }
    setFile({ name: chosen.name, text });
    await preview(text);
  }

  async function confirm(p: ContactImportPreview) {
    setStage({ kind: 'importing', preview: p });
    try {
      setStage({ kind: 'done', result: await applyImport({ id: groupId, token: p.token }).unwrap() });
      setFile(null);
      clearInput();
    } catch (e) {
      const why = outdated(e);
      if (why) setStage({ kind: 'outdated', why });
      else setStage({ kind: 'failed', message: errorMessage(e, 'The import failed; nothing was imported.'), preview: p });
    }
  }

  function cancel() {
    setFile(null);
    setStage({ kind: 'idle' });
    clearInput();
  }

  const shown = stage.kind === 'preview' || stage.kind === 'importing' ? stage.preview : stage.kind === 'failed' ? stage.preview : undefined;

  return (
    <section className="card" aria-labelledby={`${id}-title`}>
      <h2 id={`${id}-title`}>Import from CSV</h2>
      <p className="muted small" id={`${id}-hint`}>
        The first line names the columns: {CONTACT_CSV_COLUMNS.join(', ')} (in any order). Phone numbers in international format (+15551234567); language one of
        {SUPPORTED_LANGUAGES.join(', ')} (English when blank). Up to {CONTACT_IMPORT_LIMITS.maxRows.toLocaleString('en-US')} rows and {MAX_MB} MB. A row that
        matches a member already in the group (same phone or e-mail) updates it. You see what the import will do before anything is imported.
      </p>
      <div className="field">
        <label htmlFor={`${id}-file`}>CSV file</label>
        <input
          id={`${id}-file`}
          ref={fileRef}
          type="file"
          accept=".csv,text/csv"
          aria-describedby={`${id}-hint`}
          onChange={(e) => void choose(e)}
          disabled={stage.kind === 'previewing' || stage.kind === 'importing'}
        />
      </div>

      {/* one live region, there before anything changes, so each step is announced */}
      <div role="status" className="import-status">
        {stage.kind === 'previewing' && <p>Checking {file?.name ?? 'the file'}...</p>}
        {shown && <PreviewSummary preview={shown} fileName={file?.name} />}
        {stage.kind === 'done' && (
          <p className="import-result">
            Import complete: {stage.result.created} created, {stage.result.updated} updated, {stage.result.unchanged} unchanged
            {stage.result.rejected ? `, ${stage.result.rejected} rejected rows skipped` : ''}.
          </p>
        )}
      </div>
      {stage.kind === 'outdated' && (
        <div role="alert" className="import-problem">
          <p>{OUTDATED[stage.why]}</p>
          {file && (
            <button type="button" className="btn btn-outline" onClick={() => void preview(file.text)}>
              Preview Again
            </button>
          )}
        </div>
      )}
      {stage.kind === 'failed' && (
        <p role="alert" className="field-error">
          {stage.message}
        </p>
      )}
      {shown && <ImportPreview preview={shown} busy={stage.kind === 'importing'} onConfirm={() => void confirm(shown)} onCancel={cancel} />}
    </section>
  );
}

function PreviewSummary({ preview, fileName }: { preview: ContactImportPreview; fileName: string | undefined }) {
  const rejected = preview.rejected.length;
  return (
    <p>
      {fileName ? `${fileName}: ` : ''}
      <strong>
        {preview.create.length} will be created, {preview.update.length} updated, {preview.unchanged} unchanged.
      </strong>{' '}
      {rejected === 0 ? 'No rows rejected.' : `${rejected} ${rejected === 1 ? 'row is' : 'rows are'} rejected and will not be imported.`} Nothing has been
      imported yet.
    </p>
  );
}

/** The rejected rows with their reasons, and the confirmation: nothing is imported before it. */
function ImportPreview({ preview, busy, onConfirm, onCancel }: { preview: ContactImportPreview; busy: boolean; onConfirm: () => void; onCancel: () => void }) {
  const toImport = preview.create.length + preview.update.length;
  return (
    <div className="import-preview">
      {preview.rejected.length > 0 && (
        <div className="table-wrap">
          <table>
            <caption>Rejected rows</caption>
            <thead>
              <tr>
                <th scope="col">Line</th>
                {CONTACT_CSV_COLUMNS.map((c) => (
                  <th key={c} scope="col">
                    {COLUMN_TITLES[c]}
                  </th>
                ))}
                <th scope="col">Reason</th>
              </tr>
            </thead>
            <tbody>
              {preview.rejected.map((r) => (
                <tr key={r.line}>
                  <th scope="row">{r.line}</th>
                  {CONTACT_CSV_COLUMNS.map((c) => (
                    <td key={c}>{r.values[c] ?? ''}</td>
                  ))}
                  <td>{r.message}</td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}
      <div className="row">
        {toImport > 0 ? (
          <button type="button" className="btn btn-primary" onClick={onConfirm} disabled={busy}>
            {busy ? 'Importing...' : `Import ${contacts(toImport)}`}
          </button>
        ) : (
          <p className="muted">
            {preview.unchanged > 0
              ? 'Nothing to import: the valid rows are already in the group as they are.'
              : 'Nothing to import: the file has no valid row.'}
          </p>
        )}
        <button type="button" className="btn btn-outline" onClick={onCancel} disabled={busy}>
          Cancel
        </button>
      </div>
    </div>
  );
}

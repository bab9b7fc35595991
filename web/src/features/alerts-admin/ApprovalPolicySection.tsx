import { useEffect, useId, useState, type FormEvent } from 'react';
import toast from 'react-hot-toast';
import { SEVERITY_INFO, type ApprovalMode, type ApprovalPolicy, type Severity } from '@beacon/contracts';
import { errorMessage } from '@/app/api';
import { Spinner } from '@/common/Spinner';
import { formatDateTime } from '@/common/time';
import { LoadError } from '@/features/alerts';
import { useApprovalPolicyQuery, useUpdateApprovalPolicyMutation, type ApprovalPolicyBody } from './alerts-admin.api';
import { SaveRow, SeverityOptions } from './ui';

const MODE_LABELS: Record<ApprovalMode, string> = {
  off: 'Off: alerts go out when they are sent',
  severity: 'Alerts at or above a severity',
  all: 'Every alert',
};

const bodyOf = (p: ApprovalPolicy): ApprovalPolicyBody => ({ mode: p.mode, minSeverity: p.minSeverity, capAutomatic: p.capAutomatic });

/** The policy in one sentence, as it stands on screen: what waits for a second person. */
export function describePolicy(p: ApprovalPolicyBody): string {
  const rule =
    p.mode === 'off'
      ? 'Nothing waits for approval'
      : p.mode === 'all'
        ? 'Every alert waits for approval'
        : `Alerts of ${SEVERITY_INFO[p.minSeverity].label} severity or higher wait for approval`;
  if (!p.capAutomatic) return `${rule}.`;
  return p.mode === 'all' ? `${rule}, CAP automatic sends included.` : `${rule}; CAP automatic sends wait too.`;
}

/**
 * Admin Settings' approval policy (issue #38): under it, an alert's first send waits until an approver other than its
 * author approves it. Off by default, so a fresh install sends as before. Saved on its own, apart from the channels.
 */
export function ApprovalPolicySection() {
  const id = useId();
  const { data, isLoading, isError, refetch } = useApprovalPolicyQuery();
  return (
    <section className="card" aria-labelledby={`${id}-approval`}>
      <h2 id={`${id}-approval`}>Approval before sending</h2>
      <p className="small muted">
        An alert the policy covers waits, when first sent, until an approver who is not its author approves it. In an emergency its author can send it at once
        with a typed reason (break-glass); the alert stays flagged and the reason is in its audit trail.
      </p>
      {isLoading ? (
        <Spinner label="Loading the approval policy" />
      ) : isError || !data ? (
        <LoadError message="The approval policy could not be loaded." onRetry={refetch} />
      ) : (
        <PolicyForm id={id} saved={data} />
      )}
    </section>
  );
}

function PolicyForm({ id, saved }: { id: string; saved: ApprovalPolicy }) {
  const [form, setForm] = useState<ApprovalPolicyBody>(() => bodyOf(saved));
  const [result, setResult] = useState<{ ok: boolean; text: string } | null>(null);
  const [save, saving] = useUpdateApprovalPolicyMutation();

  // After a save the server's answer is the truth again.
  useEffect(() => setForm(bodyOf(saved)), [saved]);

  const dirty = form.mode !== saved.mode || form.minSeverity !== saved.minSeverity || form.capAutomatic !== saved.capAutomatic;

  async function onSubmit(e: FormEvent) {
    e.preventDefault();
    setResult(null);
    try {
      const policy = await save(form).unwrap();
      setResult({ ok: true, text: `Saved. ${describePolicy(policy)}` });
      toast.success('Approval policy saved');
    } catch (err) {
      const message = errorMessage(err, 'The approval policy could not be saved');
      setResult({ ok: false, text: message });
      toast.error(message);
    }
  }

  return (
    <form className="stack" onSubmit={onSubmit} noValidate aria-label="Approval policy">
      <div role="radiogroup" aria-label="Alerts that wait for approval" className="stack">
        {(Object.keys(MODE_LABELS) as ApprovalMode[]).map((mode) => (
          <label key={mode} className="checkbox checkbox-line">
            <input type="radio" name={`${id}-mode`} value={mode} checked={form.mode === mode} onChange={() => setForm((f) => ({ ...f, mode }))} />{' '}
            {MODE_LABELS[mode]}
          </label>
        ))}
      </div>
      <div className="field">
        <label htmlFor={`${id}-min-severity`}>Lowest severity that waits</label>
        <select
          id={`${id}-min-severity`}
          value={form.minSeverity}
          disabled={form.mode !== 'severity'}
          onChange={(e) => setForm((f) => ({ ...f, minSeverity: e.target.value as Severity }))}
        >
          <SeverityOptions />
        </select>
      </div>
      <label className="checkbox checkbox-line">
        <input type="checkbox" checked={form.capAutomatic} onChange={(e) => setForm((f) => ({ ...f, capAutomatic: e.target.checked }))} /> CAP automatic sends
        wait too
      </label>
      <p className="small muted" aria-live="polite">
        {describePolicy(form)}
      </p>
      <SaveRow label="Save approval policy" dirty={dirty} saving={saving.isLoading} onDiscard={() => setForm(bodyOf(saved))} result={result} />
      <p className="small muted">{saved.updatedAt ? `Last saved ${formatDateTime(saved.updatedAt)}` : 'Never saved: approval is off.'}</p>
    </form>
  );
}

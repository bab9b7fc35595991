import { useId, useState, type FormEvent } from 'react';
import toast from 'react-hot-toast';
import {
  CAP_INGEST_CATEGORIES,
  CAP_INGEST_SEVERITIES,
  CHANNEL_LABELS,
  DELIVERY_CHANNELS,
  type CapSource,
  type CapSourceMode,
  type DeliveryChannel,
} from '@beacon/contracts';
import { errorMessage } from '@/app/api';
import { Spinner } from '@/common/Spinner';
import { formatDateTime } from '@/common/time';
import { LoadError } from '@/features/alerts';
import {
  useCapSourcesQuery,
  useCreateCapSourceMutation,
  useDeleteCapSourceMutation,
  usePollCapSourceMutation,
  useUpdateCapSourceMutation,
  type CapSourceBody,
} from './alerts-admin.api';

const MODE_LABELS: Record<CapSourceMode, string> = {
  draft: 'Create a draft for review',
  send: 'Send at once',
  send_extreme_immediate: 'Send Extreme + Immediate at once, draft the rest',
};

const HEALTH_LABELS: Record<CapSource['health']['state'], string> = { ok: 'Working', failing: 'Failing', never_fetched: 'Not fetched yet', disabled: 'Off' };

const EMPTY: CapSourceBody = { name: '', url: '', intervalSeconds: 300, categories: [], severities: [], mode: 'draft', channels: ['push'], enabled: true };

const toBody = (s: CapSource): CapSourceBody => ({
  name: s.name,
  url: s.url,
  intervalSeconds: s.intervalSeconds,
  categories: s.categories,
  severities: s.severities,
  mode: s.mode,
  channels: s.channels,
  enabled: s.enabled,
});

const toggle = <T,>(list: T[], v: T, on: boolean) => (on ? [...list.filter((x) => x !== v), v] : list.filter((x) => x !== v));

/** Admin Settings' "CAP sources": the official feeds Beacon takes warnings from (issue 23), their rule and their health. */
export function CapSourcesSection() {
  const id = useId();
  const { data, isLoading, isError, refetch } = useCapSourcesQuery();
  const [editing, setEditing] = useState<{ id: string | null; body: CapSourceBody } | null>(null);
  return (
    <section className="card" aria-labelledby={`${id}-cap`}>
      <h2 id={`${id}-cap`}>CAP sources</h2>
      <p className="small muted">Official warnings (CAP 1.2 / 1.1 feeds of weather services and emergency agencies) turned into Beacon alerts.</p>
      {isLoading ? (
        <Spinner label="Loading CAP sources" />
      ) : isError || !data ? (
        <LoadError message="CAP sources could not be loaded." onRetry={refetch} />
      ) : (
        <>
          {data.length === 0 && <p className="small muted">No CAP source yet.</p>}
          <ul className="stack" aria-label="CAP sources">
            {data.map((s) => (
              <SourceItem key={s.id} source={s} onEdit={() => setEditing({ id: s.id, body: toBody(s) })} />
            ))}
          </ul>
        </>
      )}
      {editing ? (
        <SourceForm initial={editing.body} sourceId={editing.id} onDone={() => setEditing(null)} />
      ) : (
        <button type="button" className="btn btn-outline" onClick={() => setEditing({ id: null, body: EMPTY })}>
          Add CAP source
        </button>
      )}
    </section>
  );
}

function SourceItem({ source, onEdit }: { source: CapSource; onEdit: () => void }) {
  const [poll, polling] = usePollCapSourceMutation();
  const [remove, removing] = useDeleteCapSourceMutation();
  const [pollResult, setPollResult] = useState<string | null>(null);
  const h = source.health;
  async function onPoll() {
    setPollResult(null);
    try {
      const r = await poll(source.id).unwrap();
      const left = r.leftForNextPoll > 0 ? `; ${r.leftForNextPoll} linked messages left for the next poll (the poll's time ran out)` : '';
      setPollResult(`Fetched: ${r.created} new, ${r.updated} updated, ${r.cancelled} ended, ${r.refused} refused${left}`);
    } catch (err) {
      setPollResult(errorMessage(err, 'The source could not be fetched'));
    }
  }
  async function onDelete() {
    if (!window.confirm(`Remove the CAP source “${source.name}”? Alerts it made stay.`)) return;
    try {
      await remove(source.id).unwrap();
      toast.success('CAP source removed');
    } catch (err) {
      toast.error(errorMessage(err, 'The source could not be removed'));
    }
  }
  return (
    <li className="cap-source" aria-label={source.name}>
      <div className="row-between">
        <strong>{source.name}</strong>
        <span className={`badge ${h.state === 'failing' ? 'badge-danger' : h.state === 'ok' ? 'badge-success' : ''}`}>{HEALTH_LABELS[h.state]}</span>
      </div>
      <p className="small muted">
        <span>{source.url}</span> · every {source.intervalSeconds} s · {MODE_LABELS[source.mode]}
      </p>
      <dl className="small">
        <dt>Last fetch</dt>
        <dd>{h.lastFetchAt ? formatDateTime(h.lastFetchAt) : 'never'}</dd>
        {h.lastError && (
          <>
            <dt>Last error</dt>
            <dd>{h.lastError}</dd>
          </>
        )}
        <dt>Next try</dt>
        <dd>{formatDateTime(h.nextFetchAt)}</dd>
      </dl>
      {h.recentRefusals.length > 0 && (
        <details>
          <summary className="small">Recent refusals ({h.recentRefusals.length})</summary>
          <ul className="small" aria-label={`Refusals of ${source.name}`}>
            {h.recentRefusals.map((r, i) => (
              <li key={i}>
                {formatDateTime(r.at)}: {r.url ? `${r.url}: ` : ''}
                {r.reason}
              </li>
            ))}
          </ul>
        </details>
      )}
      <div className="row">
        <button type="button" className="btn btn-outline btn-sm" onClick={onPoll} disabled={polling.isLoading}>
          {polling.isLoading ? 'Fetching...' : 'Fetch now'}
        </button>
        <button type="button" className="btn btn-ghost btn-sm" onClick={onEdit}>
          Edit
        </button>
        <button type="button" className="btn btn-ghost btn-sm" onClick={onDelete} disabled={removing.isLoading}>
          Remove
        </button>
        {pollResult && (
          <span className="small" role="status">
            {pollResult}
          </span>
        )}
      </div>
    </li>
  );
}

function SourceForm({ initial, sourceId, onDone }: { initial: CapSourceBody; sourceId: string | null; onDone: () => void }) {
  const id = useId();
  const [form, setForm] = useState<CapSourceBody>(initial);
  const [create, creating] = useCreateCapSourceMutation();
  const [update, updating] = useUpdateCapSourceMutation();
  const [error, setError] = useState<string | null>(null);
  const set = <K extends keyof CapSourceBody>(key: K, value: CapSourceBody[K]) => setForm((f) => ({ ...f, [key]: value }));
  async function onSubmit(e: FormEvent) {
    e.preventDefault();
    const body = { ...form, name: form.name.trim(), url: form.url.trim() };
    setError(null);
    try {
      if (sourceId) await update({ id: sourceId, body }).unwrap();
      else await create(body).unwrap();
      toast.success(sourceId ? 'CAP source saved' : 'CAP source added');
      onDone();
    } catch (err) {
      setError(errorMessage(err, 'The CAP source could not be saved'));
    }
  }
  const busy = creating.isLoading || updating.isLoading;
  return (
    <form className="stack" onSubmit={onSubmit} aria-label={sourceId ? 'Edit CAP source' : 'New CAP source'}>
      <div className="field">
        <label htmlFor={`${id}-name`}>Source name</label>
        <input id={`${id}-name`} value={form.name} onChange={(e) => set('name', e.target.value)} required maxLength={100} />
      </div>
      <div className="field">
        <label htmlFor={`${id}-url`}>Feed URL</label>
        <input
          id={`${id}-url`}
          type="url"
          inputMode="url"
          value={form.url}
          onChange={(e) => set('url', e.target.value)}
          placeholder="https://alerts.example.gov/cap/feed.atom"
          required
        />
      </div>
      <div className="field">
        <label htmlFor={`${id}-interval`}>Polling interval (seconds)</label>
        <input
          id={`${id}-interval`}
          type="number"
          min={30}
          max={86400}
          value={form.intervalSeconds}
          onChange={(e) => set('intervalSeconds', Number(e.target.value))}
        />
      </div>
      <fieldset>
        <legend>Categories to take (none: all)</legend>
        {CAP_INGEST_CATEGORIES.map((c) => (
          <label key={c} className="checkbox">
            <input type="checkbox" checked={form.categories.includes(c)} onChange={(e) => set('categories', toggle(form.categories, c, e.target.checked))} />{' '}
            {c}
          </label>
        ))}
      </fieldset>
      <fieldset>
        <legend>Severities to take (none: all)</legend>
        {CAP_INGEST_SEVERITIES.map((s) => (
          <label key={s} className="checkbox">
            <input type="checkbox" checked={form.severities.includes(s)} onChange={(e) => set('severities', toggle(form.severities, s, e.target.checked))} />{' '}
            {s}
          </label>
        ))}
      </fieldset>
      <div className="field">
        <label htmlFor={`${id}-mode`}>When a message comes in</label>
        <select id={`${id}-mode`} value={form.mode} onChange={(e) => set('mode', e.target.value as CapSourceMode)}>
          {(Object.keys(MODE_LABELS) as CapSourceMode[]).map((m) => (
            <option key={m} value={m}>
              {MODE_LABELS[m]}
            </option>
          ))}
        </select>
      </div>
      <fieldset>
        <legend>Channels</legend>
        {DELIVERY_CHANNELS.map((c: DeliveryChannel) => (
          <label key={c} className="checkbox">
            <input type="checkbox" checked={form.channels.includes(c)} onChange={(e) => set('channels', toggle(form.channels, c, e.target.checked))} />{' '}
            {CHANNEL_LABELS[c]}
          </label>
        ))}
      </fieldset>
      <label className="checkbox checkbox-line">
        <input type="checkbox" checked={form.enabled} onChange={(e) => set('enabled', e.target.checked)} /> Fetch this source
      </label>
      {error && (
        <p className="field-error" role="alert">
          {error}
        </p>
      )}
      <div className="row">
        <button type="button" className="btn btn-ghost" onClick={onDone} disabled={busy}>
          Cancel
        </button>
        <button type="submit" className="btn btn-primary" disabled={busy || !form.channels.length}>
          {busy ? 'Saving...' : sourceId ? 'Save source' : 'Add source'}
        </button>
      </div>
    </form>
  );
}

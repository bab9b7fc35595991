import { useEffect, useId, useState, type FormEvent } from 'react';
import toast from 'react-hot-toast';
import {
  CHANNEL_LABELS,
  DELIVERY_CHANNELS,
  TEST_SCHEDULE_FREQUENCIES,
  WEEKDAY_NAMES,
  type DeliveryChannel,
  type TestGroupMember,
  type TestRun,
  type TestSchedule,
  type TestScheduleFrequency,
} from '@beacon/contracts';
import { errorMessage } from '@/app/api';
import { useAppSelector } from '@/app/hooks';
import { Spinner } from '@/common/Spinner';
import { formatDateTime } from '@/common/time';
import { LoadError } from '@/features/alerts';
import { selectIsAdmin } from '@/features/auth/auth.slice';
import {
  useAdminSettingsQuery,
  useMyTestGroupMembershipQuery,
  useRemoveTestGroupMemberMutation,
  useSetMyTestGroupMembershipMutation,
  useTestGroupQuery,
  useTestScheduleQuery,
  useUpdateTestScheduleMutation,
  type AdminSettingsView,
  type TestScheduleBody,
} from './alerts-admin.api';
import { channelList, SaveRow } from './ui';

type ScheduleForm = Required<TestScheduleBody>;

const FREQUENCY_LABELS: Record<TestScheduleFrequency, string> = { off: 'Off', daily: 'Every day', weekly: 'Once a week' };

/** This browser's time zone: the first guess for a schedule never saved (the server's default is UTC). */
const browserTimeZone = () => Intl.DateTimeFormat().resolvedOptions().timeZone || 'UTC';

const TIME_ZONES: readonly string[] = (Intl as { supportedValuesOf?: (key: string) => string[] }).supportedValuesOf?.('timeZone') ?? [];

const formOf = (s: TestSchedule): ScheduleForm => ({
  frequency: s.frequency,
  weekday: s.weekday,
  time: s.time,
  timeZone: s.updatedAt ? s.timeZone : browserTimeZone(),
  channels: s.channels,
});

const sameForm = (a: ScheduleForm, b: ScheduleForm) =>
  a.frequency === b.frequency &&
  a.weekday === b.weekday &&
  a.time === b.time &&
  a.timeZone === b.timeZone &&
  a.channels.length === b.channels.length &&
  a.channels.every((c) => b.channels.includes(c));

/**
 * The channels the settings have turned on (all while the settings are not read yet: the server checks anyway). SMS
 * through Twilio is on when its account is, not the webhook's switch; voice by its own switch (issue #39).
 */
function channelOn(settings: AdminSettingsView | undefined, c: DeliveryChannel): boolean {
  if (!settings) return true;
  switch (c) {
    case 'push':
      return settings.push.enabled;
    case 'sms':
      return settings.sms?.provider === 'twilio' || settings.webhook.enabled;
    case 'email':
      return settings.email.enabled;
    case 'voice':
      return settings.voice?.enabled ?? true;
  }
}

/** The schedule in one sentence, as it stands on screen. */
export function describeTestSchedule(s: ScheduleForm): string {
  if (s.frequency === 'off') return 'No recurring test alert is sent.';
  const when = s.frequency === 'daily' ? 'Every day' : `Every ${WEEKDAY_NAMES[s.weekday]}`;
  const by = s.channels.length ? `, by ${channelList(s.channels)}` : ', on no channel yet';
  return `${when} at ${s.time} (${s.timeZone})${by}, to the staff test group.`;
}

/** An instant as read in the schedule's time zone: "Wednesday, Mar 4, 2026, 10:00 AM EST". */
export function inZone(iso: string, timeZone: string): string {
  return new Intl.DateTimeFormat('en-US', {
    timeZone,
    weekday: 'long',
    month: 'short',
    day: 'numeric',
    year: 'numeric',
    hour: 'numeric',
    minute: '2-digit',
    timeZoneName: 'short',
  }).format(new Date(iso));
}

function lastRunText(run: TestRun): string {
  const at = formatDateTime(run.at);
  if (run.skipped === 'no_members') return `Last run ${at}: not sent, nobody was in the staff test group.`;
  if (run.skipped === 'no_channels') return `Last run ${at}: not sent, every chosen channel was turned off.`;
  return `Last run ${at}: sent to ${run.recipients} staff ${run.recipients === 1 ? 'member' : 'members'}.`;
}

/**
 * Admin Settings' recurring test alert (issue #38): a test alert marked TEST on every channel (and status Test in its
 * CAP) sent on a schedule to the staff test group. Each staff member opts themselves in; an admin sets the schedule,
 * sees who is in the group, and may take someone out.
 */
export function TestAlertSection() {
  const id = useId();
  const isAdmin = useAppSelector(selectIsAdmin);
  return (
    <section className="card stack" aria-labelledby={`${id}-recurring`}>
      <h2 id={`${id}-recurring`}>Recurring test alert</h2>
      <p className="small muted">
        A real alert through every step of delivery, marked “TEST” at the start of each push, text message and e-mail, sent on a schedule to the staff who chose
        to receive it. It is kept out of history and statistics.
      </p>
      <MyMembership />
      {isAdmin && (
        <>
          <ScheduleSection id={id} />
          <GroupList id={id} />
        </>
      )}
    </section>
  );
}

/** The signed-in staff member's own choice. */
function MyMembership() {
  const { data, isLoading, isError, refetch } = useMyTestGroupMembershipQuery();
  const [setMember, setting] = useSetMyTestGroupMembershipMutation();
  const [error, setError] = useState<string | null>(null);
  if (isLoading) return <Spinner label="Loading your test alert choice" />;
  if (isError || !data) return <LoadError message="Whether you receive the test alert could not be loaded." onRetry={refetch} />;

  async function onChange(member: boolean) {
    setError(null);
    try {
      await setMember(member).unwrap();
      toast.success(member ? 'You will receive the recurring test alert' : 'You will no longer receive the recurring test alert');
    } catch (err) {
      setError(errorMessage(err, 'Your choice could not be saved'));
    }
  }

  return (
    <div className="stack">
      <label className="checkbox checkbox-line">
        <input type="checkbox" checked={data.member} disabled={setting.isLoading} onChange={(e) => onChange(e.target.checked)} /> Receive the recurring test
        alert
      </label>
      <p className="small muted">It reaches you on the channels of your alert preferences (a browser with notifications allowed, your phone, your e-mail).</p>
      {error && (
        <p className="small" role="alert">
          {error}
        </p>
      )}
    </div>
  );
}

function ScheduleSection({ id }: { id: string }) {
  const { data, isLoading, isError, refetch } = useTestScheduleQuery();
  if (isLoading) return <Spinner label="Loading the test alert schedule" />;
  if (isError || !data) return <LoadError message="The test alert schedule could not be loaded." onRetry={refetch} />;
  return <ScheduleEditor id={id} saved={data} />;
}

function ScheduleEditor({ id, saved }: { id: string; saved: TestSchedule }) {
  const { data: settings } = useAdminSettingsQuery();
  const [form, setForm] = useState<ScheduleForm>(() => formOf(saved));
  const [result, setResult] = useState<{ ok: boolean; text: string } | null>(null);
  const [save, saving] = useUpdateTestScheduleMutation();

  // After a save the server's answer is the truth again.
  useEffect(() => setForm(formOf(saved)), [saved]);

  const dirty = !sameForm(form, formOf(saved));
  const set = <K extends keyof ScheduleForm>(key: K, value: ScheduleForm[K]) => setForm((f) => ({ ...f, [key]: value }));
  const toggleChannel = (c: DeliveryChannel, on: boolean) =>
    set(
      'channels',
      DELIVERY_CHANNELS.filter((x) => (x === c ? on : form.channels.includes(x))),
    );

  async function onSubmit(e: FormEvent) {
    e.preventDefault();
    setResult(null);
    try {
      const schedule = await save(form).unwrap();
      const next = schedule.nextRunAt ? ` Next run: ${inZone(schedule.nextRunAt, schedule.timeZone)}.` : '';
      setResult({ ok: true, text: `Saved.${next}` });
      toast.success('Test alert schedule saved');
    } catch (err) {
      const message = errorMessage(err, 'The test alert schedule could not be saved');
      setResult({ ok: false, text: message });
      toast.error(message);
    }
  }

  return (
    <form className="stack" onSubmit={onSubmit} noValidate aria-label="Test alert schedule">
      <div className="field">
        <label htmlFor={`${id}-frequency`}>How often</label>
        <select id={`${id}-frequency`} value={form.frequency} onChange={(e) => set('frequency', e.target.value as TestScheduleFrequency)}>
          {TEST_SCHEDULE_FREQUENCIES.map((f) => (
            <option key={f} value={f}>
              {FREQUENCY_LABELS[f]}
            </option>
          ))}
        </select>
      </div>
      <div className="field">
        <label htmlFor={`${id}-weekday`}>Day of the week</label>
        <select id={`${id}-weekday`} value={form.weekday} disabled={form.frequency !== 'weekly'} onChange={(e) => set('weekday', Number(e.target.value))}>
          {WEEKDAY_NAMES.map((name, day) => (
            <option key={name} value={day}>
              {name}
            </option>
          ))}
        </select>
      </div>
      <div className="field">
        <label htmlFor={`${id}-time`}>Local time</label>
        <input id={`${id}-time`} type="time" value={form.time} disabled={form.frequency === 'off'} onChange={(e) => set('time', e.target.value)} />
      </div>
      <div className="field">
        <label htmlFor={`${id}-zone`}>Time zone</label>
        <input
          id={`${id}-zone`}
          list={`${id}-zones`}
          value={form.timeZone}
          disabled={form.frequency === 'off'}
          onChange={(e) => set('timeZone', e.target.value)}
          placeholder="e.g. America/New_York"
          autoComplete="off"
        />
        <datalist id={`${id}-zones`}>
          {TIME_ZONES.map((z) => (
            <option key={z} value={z} />
          ))}
        </datalist>
      </div>
      <fieldset className="stack" disabled={form.frequency === 'off'}>
        <legend>Channels to test</legend>
        {DELIVERY_CHANNELS.map((c) => {
          const on = channelOn(settings, c);
          return (
            <label key={c} className="checkbox checkbox-line">
              <input
                type="checkbox"
                checked={form.channels.includes(c)}
                disabled={!on && !form.channels.includes(c)}
                onChange={(e) => toggleChannel(c, e.target.checked)}
              />{' '}
              {CHANNEL_LABELS[c]}
              {!on && <span className="small muted"> (turned off in the channel settings)</span>}
            </label>
          );
        })}
      </fieldset>
      <p className="small muted" aria-live="polite">
        {describeTestSchedule(form)}
      </p>
      <p className="small">
        {dirty ? 'Save to compute the next run.' : saved.nextRunAt ? `Next run: ${inZone(saved.nextRunAt, saved.timeZone)}.` : 'No run is scheduled.'}
      </p>
      {saved.lastRun && <p className="small muted">{lastRunText(saved.lastRun)}</p>}
      <SaveRow label="Save test schedule" dirty={dirty} saving={saving.isLoading} onDiscard={() => setForm(formOf(saved))} result={result} />
    </form>
  );
}

function reachText(m: TestGroupMember): string {
  return m.reachableBy.length ? `Reached by ${channelList(m.reachableBy)}` : 'No chosen channel reaches them: their alert preferences have none of them on';
}

/** Who is in the staff test group, each with the chosen channels that reach them; an admin may take someone out. */
function GroupList({ id }: { id: string }) {
  const { data, isLoading, isError, refetch } = useTestGroupQuery();
  const [remove, removing] = useRemoveTestGroupMemberMutation();
  if (isLoading) return <Spinner label="Loading the staff test group" />;
  if (isError || !data) return <LoadError message="The staff test group could not be loaded." onRetry={refetch} />;

  async function onRemove(m: TestGroupMember) {
    try {
      await remove(m.userId).unwrap();
      toast.success(`${m.email ?? 'They'} will no longer receive the recurring test alert`);
    } catch (err) {
      toast.error(errorMessage(err, 'They could not be taken out of the staff test group'));
    }
  }

  return (
    <div className="stack">
      <h3 id={`${id}-group`}>Staff test group</h3>
      {data.members.length === 0 ? (
        <p className="small muted">Nobody yet: each staff member chooses “Receive the recurring test alert” for themselves.</p>
      ) : (
        <ul aria-labelledby={`${id}-group`} className="stack">
          {data.members.map((m) => (
            <li key={m.userId} className="row-between">
              <span>
                <strong>{m.email ?? m.userId}</strong>
                <br />
                <span className="small muted">
                  {reachText(m)} · joined {formatDateTime(m.joinedAt)}
                </span>
              </span>
              <button
                type="button"
                className="btn btn-ghost"
                disabled={removing.isLoading}
                onClick={() => onRemove(m)}
                aria-label={`Remove ${m.email ?? m.userId}`}
              >
                Remove
              </button>
            </li>
          ))}
        </ul>
      )}
    </div>
  );
}

import { useState } from 'react';
import { fireEvent, screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import type { AdminAlert, AlertAudience, AlertTargetGroup, AlertVersion, ContactGroup } from '@beacon/contracts';
import { jsonResponse as json } from '@/test/json-response';
import { AREA_DEFAULTS, areaValuesOf, localDateTimeValue } from './alert-form';
import { AlertLifecycle, changesOf, versionText } from './AlertLifecycle';
import { audienceChanged, audienceOf, renderAs, tokenOf } from './guard-test-utils';
import { adminAlert, renderScreen, requestOf } from './test-utils';

// Leaflet (ESM, canvas) does not run in jsdom: the map is a button that "clicks" a corner.
jest.mock('@/features/alerts/AreaMap', () => ({
  __esModule: true,
  default: ({ onPick, label, parts }: { onPick?: (lat: number, lng: number) => void; label: string; parts?: { type: string }[] | null }) => (
    <button type="button" onClick={() => onPick?.(33.45, -111.9)} data-parts={parts?.map((p) => p.type).join(' ')}>
      {label}
    </button>
  ),
}));

/** The sending calls, with the token each carried; the previews apart. */
let posts: { path: string; body: unknown; token?: string | null }[];
let previews: { path: string; body: unknown }[];
let answer: (path: string, body: Record<string, unknown>, token: string | null) => Response;
let counted: AlertAudience;
let versions: AlertVersion[];
/** GET /api/alerts/admin/contact-groups: the groups the form offers (issue #42). */
let groupList: ContactGroup[];

const v = (o: Partial<AlertVersion>): AlertVersion => ({
  version: 1,
  kind: 'original',
  title: 'Wrong-way driver on I-10',
  message: 'Heading west near 7th St.',
  severity: 'critical',
  expiresAt: null,
  locationName: null,
  lat: 33.45,
  lng: -112.07,
  radiusKm: 5,
  area: { type: 'circle', lat: 33.45, lng: -112.07, radiusKm: 5 },
  changed: [],
  actorEmail: 'dispatch@city.example',
  at: '2026-11-25T10:00:00.000Z',
  notified: 40,
  ...o,
});

beforeEach(() => {
  posts = [];
  previews = [];
  versions = [];
  groupList = [];
  counted = audienceOf(40, { told: { stillInArea: 38, leftArea: 0, newlyConcerned: 2 } });
  answer = (path, body) => json(adminAlert({ ...base, ...body, version: base.version + 1, status: path.endsWith('/all-clear') ? 'all_clear' : 'active' }));
  global.fetch = jest.fn(async (input: RequestInfo | URL) => {
    const { req, path } = requestOf(input);
    if (req.method === 'POST' && path.endsWith('/audience')) {
      previews.push({ path, body: await req.json() });
      return json(counted);
    }
    if (req.method === 'POST') {
      const body = (await req.json()) as Record<string, unknown>;
      const token = tokenOf(req);
      posts.push(token ? { path, body, token } : { path, body });
      return answer(path, body, token);
    }
    if (path.endsWith('/versions')) return json(versions);
    if (path === '/api/alerts/admin/contact-groups') return json(groupList);
    return json({ code: 'not_found', message: 'Not found' }, 404);
  }) as unknown as typeof fetch;
});

const dialog = () => screen.getByRole('dialog');

/** Opens the update form of `alert`, adds to its message and asks for the review (the count and the confirmation). */
async function reviewMessageUpdate(alert: AdminAlert) {
  const user = userEvent.setup();
  renderScreen(<AlertLifecycle alert={alert} />);
  await user.click(screen.getByRole('button', { name: 'Update alert' }));
  await user.type(screen.getByLabelText('Message'), ' Use I-17.');
  await user.click(screen.getByRole('button', { name: 'Review the update' }));
  return user;
}

const base: AdminAlert = adminAlert({
  title: 'Wrong-way driver on I-10',
  message: 'Heading west near 7th St.',
  severity: 'critical',
  lat: 33.45,
  lng: -112.07,
  radiusKm: 5,
  recipients: 40,
  version: 1,
});

describe('Update or end an alert (alert detail)', () => {
  it("counts whom the update tells, names that number, and sends only what the admin changed, with the count's token", async () => {
    const user = userEvent.setup();
    renderScreen(<AlertLifecycle alert={adminAlert({ ...base, channels: ['push', 'sms'] })} />);
    await user.click(screen.getByRole('button', { name: 'Update alert' }));
    const title = screen.getByLabelText('Title');
    await user.clear(title);
    await user.type(title, 'Wrong-way driver now on I-17');
    await user.clear(screen.getByLabelText('Latitude'));
    await user.type(screen.getByLabelText('Latitude'), '33.5');
    await user.click(screen.getByRole('button', { name: 'Review the update' }));
    const confirm = await within(dialog()).findByRole('button', { name: 'Send update to 40 people' });
    const body = { revision: 1, title: 'Wrong-way driver now on I-17', lat: 33.5, lng: -112.07 };
    expect(previews).toEqual([{ path: `/api/alerts/${base.id}/update/audience`, body }]);
    expect(posts).toHaveLength(0);
    expect(dialog()).toHaveTextContent('Changes: title, area.');
    expect(dialog()).toHaveTextContent('38 people it reached get the update; 2 people newly inside get the alert.');
    // The new area on a map, and what each channel says.
    expect(within(dialog()).getByRole('button', { name: `Area after the update of ${base.title}` })).toBeInTheDocument();
    const english = within(dialog()).getByRole('group', { name: 'English preview' });
    expect(english).toHaveTextContent('Update: Wrong-way driver now on I-17');
    expect(english).toHaveTextContent('Update: Wrong-way driver now on I-17Heading west near 7th St.');
    expect(within(english).getByText('1 segment · GSM-7 · 62 characters')).toBeInTheDocument();

    await user.click(confirm);
    expect(await screen.findByText('Version 2 is going out to 40 people.')).toBeInTheDocument();
    expect(posts).toEqual([{ path: `/api/alerts/${base.id}/update`, body, token: counted.token }]);
  });

  it('shows the new number when the audience moved since the count, and sends on a second confirmation with the fresh token', async () => {
    const fresh = audienceOf(46);
    answer = (path, body, token) => (token === fresh.token ? json(adminAlert({ ...base, ...body, version: 2 })) : json(audienceChanged(fresh), 409));
    const user = await reviewMessageUpdate(base);
    await user.click(await within(dialog()).findByRole('button', { name: 'Send update to 40 people' }));
    expect(await within(dialog()).findByRole('alert')).toHaveTextContent('The audience changed: it is now 46 people (you confirmed 40).');
    expect(screen.queryByText(/is going out/)).not.toBeInTheDocument();
    await user.click(within(dialog()).getByRole('button', { name: 'Send update to 46 people' }));
    expect(await screen.findByText('Version 2 is going out to 46 people.')).toBeInTheDocument();
    expect(posts.map((p) => p.token)).toEqual([counted.token, fresh.token]);
  });

  it('holds the update back while the circle has no centre, and says so at the circle', async () => {
    const user = userEvent.setup();
    renderScreen(<AlertLifecycle alert={base} />);
    await user.click(screen.getByRole('button', { name: 'Update alert' }));
    await user.clear(screen.getByLabelText('Latitude'));
    expect(screen.getByRole('alert')).toHaveTextContent('Place the centre of the area on the map, or type its coordinates');
    expect(screen.getByRole('button', { name: 'Review the update' })).toBeDisabled();
    await user.type(screen.getByLabelText('Latitude'), '33.4');
    expect(screen.queryByRole('alert')).not.toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Review the update' })).toBeEnabled();
  });

  it('changes the expiry (or clears it: never), and refuses one in the past before anything is counted', async () => {
    const expiring = adminAlert({ ...base, expiresAt: new Date(Date.now() + 3_600_000).toISOString() });
    const user = userEvent.setup();
    renderScreen(<AlertLifecycle alert={expiring} />);
    await user.click(screen.getByRole('button', { name: 'Update alert' }));
    const expiry = screen.getByLabelText('Expires (your time; empty: never)');
    fireEvent.change(expiry, { target: { value: localDateTimeValue(new Date(Date.now() - 3_600_000)) } });
    expect(screen.getByText('Expiry must be in the future')).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Review the update' })).toBeDisabled();

    const later = new Date(Date.now() + 6 * 3_600_000);
    later.setSeconds(0, 0);
    fireEvent.change(expiry, { target: { value: localDateTimeValue(later) } });
    await user.click(screen.getByRole('button', { name: 'Review the update' }));
    expect(await within(dialog()).findByText('Changes: expiry.')).toBeInTheDocument();
    await user.click(within(dialog()).getByRole('button', { name: 'Cancel' }));
    expect(previews[0].body).toEqual({ revision: 1, expiresAt: later.toISOString() });

    await user.click(screen.getByRole('button', { name: 'Never expires' }));
    await user.click(screen.getByRole('button', { name: 'Review the update' }));
    await user.click(await within(dialog()).findByRole('button', { name: 'Send update to 40 people' }));
    await screen.findByText('Version 2 is going out to 40 people.');
    expect(posts[0].body).toEqual({ revision: 1, expiresAt: null });
  });

  it('redraws a drawn area: the new corners go as the whole new area, and a crossing one blocks sending', async () => {
    const drawn = adminAlert({
      ...base,
      radiusKm: null,
      area: {
        type: 'polygon',
        points: [
          [33.4, -112.1],
          [33.5, -112.1],
          [33.5, -112.0],
          [33.4, -112.1],
        ],
      },
    });
    const user = userEvent.setup();
    renderScreen(<AlertLifecycle alert={drawn} />);
    await user.click(screen.getByRole('button', { name: 'Update alert' }));
    expect(screen.queryByLabelText('Latitude')).not.toBeInTheDocument();
    expect(screen.getByText('Polygon with 3 points.')).toBeInTheDocument();
    // A corner that makes the edges cross blocks sending; undone, a good one is clicked on the map.
    await user.type(screen.getByLabelText('Add a point by coordinates'), '33.5, -112.2');
    await user.click(screen.getByRole('button', { name: 'Add point' }));
    expect(await screen.findByText(/edges cross/)).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Review the update' })).toBeDisabled();
    await user.click(screen.getByRole('button', { name: 'Undo last point' }));
    await user.click(await screen.findByRole('button', { name: 'New area map: click to add a corner of the polygon' }));
    await user.click(screen.getByRole('button', { name: 'Review the update' }));
    await user.click(await within(dialog()).findByRole('button', { name: 'Send update to 40 people' }));
    expect(await screen.findByText('Version 2 is going out to 40 people.')).toBeInTheDocument();
    expect(posts[0].body).toEqual({
      revision: 1,
      area: {
        type: 'polygon',
        points: [
          [33.4, -112.1],
          [33.5, -112.1],
          [33.5, -112.0],
          [33.45, -111.9],
        ],
      },
    });
  });

  it("updates the other languages with the English: the alert's Spanish text edited goes whole", async () => {
    const es = adminAlert({ ...base, translations: { es: { title: 'Conductor en sentido contrario', message: 'Hacia el oeste cerca de 7th St.' } } });
    const user = userEvent.setup();
    renderScreen(<AlertLifecycle alert={es} />);
    await user.click(screen.getByRole('button', { name: 'Update alert' }));
    const title = screen.getByLabelText(/^Spanish title/);
    await user.clear(title);
    await user.type(title, 'Conductor ahora en la I-17');
    await user.click(screen.getByRole('button', { name: 'Review the update' }));
    // Each language as its readers get it: Beacon's "Update:" in Spanish, never in English.
    const spanish = await within(dialog()).findByRole('group', { name: 'Spanish (Español) preview' });
    expect(spanish).toHaveTextContent('Actualización: Conductor ahora en la I-17');
    expect(spanish).not.toHaveTextContent('Update:');
    await user.click(within(dialog()).getByRole('button', { name: 'Send update to 40 people' }));
    await screen.findByText('Version 2 is going out to 40 people.');
    expect(posts[0].body).toEqual({
      revision: 1,
      translations: { es: { title: 'Conductor ahora en la I-17', message: 'Hacia el oeste cerca de 7th St.' } },
    });
  });

  it('edits a draft with no area (an official warning naming only places): the admin draws one and saves it; no all-clear', async () => {
    const noArea = adminAlert({ ...base, status: 'draft', recipients: null, lat: null, lng: null, radiusKm: null, area: null, sentAt: null });
    answer = (_path, body) => json(adminAlert({ ...noArea, ...body, status: 'draft' }));
    const user = userEvent.setup();
    renderScreen(<AlertLifecycle alert={noArea} />);
    expect(screen.queryByRole('button', { name: 'Give the all-clear' })).not.toBeInTheDocument();
    await user.click(screen.getByRole('button', { name: 'Edit draft' }));
    await user.click(screen.getByRole('button', { name: 'Draw the area' }));
    for (const point of ['34.05, -111.35', '34.05, -111.2', '33.95, -111.27']) {
      await user.type(screen.getByLabelText('Add a point by coordinates'), point);
      await user.click(screen.getByRole('button', { name: 'Add point' }));
    }
    await user.click(screen.getByRole('button', { name: 'Save draft' }));
    expect(await screen.findByText('Draft saved.')).toBeInTheDocument();
    // Nothing goes out: nothing is counted, and the save carries no token.
    expect(previews).toHaveLength(0);
    expect(posts[0].token).toBeUndefined();
    expect(posts[0].body).toEqual({
      revision: 1,
      area: {
        type: 'polygon',
        points: [
          [34.05, -111.35],
          [34.05, -111.2],
          [33.95, -111.27],
        ],
      },
    });
  });

  it("shows the server's refusal as it says it, and keeps the form", async () => {
    answer = () => json({ statusCode: 409, code: 'alert_update_conflict', message: 'This alert was changed meanwhile (it is now version 3)' }, 409);
    const user = await reviewMessageUpdate(base);
    await user.click(await within(dialog()).findByRole('button', { name: 'Send update to 40 people' }));
    expect(await screen.findByRole('alert')).toHaveTextContent('This alert was changed meanwhile (it is now version 3)');
    expect(screen.queryByRole('dialog')).not.toBeInTheDocument();
    expect(screen.getByRole('form', { name: 'Update alert' })).toBeInTheDocument();
  });

  it('a draft edited by a colleague meanwhile: sends the revision it opened on, shows the refusal, reloads their text', async () => {
    const draft = adminAlert({ ...base, status: 'draft', recipients: null, sentAt: null, revision: 4 });
    const theirs = adminAlert({ ...draft, title: 'Wrong-way driver on I-10 at 7th St', revision: 5 });
    answer = () =>
      json(
        {
          statusCode: 409,
          code: 'alert_edited_elsewhere',
          message: 'This draft was changed by someone else since you opened it. Reload to see their changes.',
        },
        409,
      );
    // The colleague's save reaches this screen (live, or a reload of the alert) while the form is open.
    function Screen() {
      const [shown, setShown] = useState(draft);
      return (
        <>
          <button type="button" onClick={() => setShown(theirs)}>
            Colleague saved
          </button>
          <AlertLifecycle alert={shown} />
        </>
      );
    }
    const user = userEvent.setup();
    renderScreen(<Screen />);
    await user.click(screen.getByRole('button', { name: 'Edit draft' }));
    await user.type(screen.getByLabelText('Message'), ' Use I-17.');
    await user.click(screen.getByRole('button', { name: 'Colleague saved' }));
    await user.click(screen.getByRole('button', { name: 'Save draft' }));
    expect(await screen.findByRole('alert')).toHaveTextContent('This draft was changed by someone else since you opened it. Reload to see their changes.');
    expect(posts).toEqual([{ path: `/api/alerts/${base.id}/update`, body: { revision: 4, message: 'Heading west near 7th St. Use I-17.' } }]);
    await user.click(screen.getByRole('button', { name: 'Reload the latest' }));
    expect(screen.getByLabelText('Title')).toHaveValue('Wrong-way driver on I-10 at 7th St');
    expect(screen.getByLabelText('Message')).toHaveValue('Heading west near 7th St.');
    answer = (_path, body) => json(adminAlert({ ...theirs, ...body, revision: 6 }));
    await user.type(screen.getByLabelText('Message'), ' Use I-17.');
    await user.click(screen.getByRole('button', { name: 'Save draft' }));
    expect(await screen.findByText('Draft saved.')).toBeInTheDocument();
    expect(posts[1].body).toEqual({ revision: 5, message: 'Heading west near 7th St. Use I-17.' });
  });

  it('gives the all-clear with its own words, only after the admin confirms the number it tells', async () => {
    const user = userEvent.setup();
    renderScreen(<AlertLifecycle alert={base} />);
    await user.click(screen.getByRole('button', { name: 'Give the all-clear' }));
    await user.type(screen.getByLabelText('All-clear message (optional)'), 'The driver was stopped.');
    await user.click(screen.getByRole('button', { name: 'Review the all-clear' }));
    const confirm = await within(dialog()).findByRole('button', { name: 'Send all-clear to 40 people' });
    expect(posts).toHaveLength(0);
    expect(previews).toEqual([{ path: `/api/alerts/${base.id}/all-clear/audience`, body: { message: 'The driver was stopped.' } }]);
    await user.click(confirm);
    expect(await screen.findByText('All clear given: 40 people this alert reached are being told.')).toBeInTheDocument();
    expect(posts).toEqual([{ path: `/api/alerts/${base.id}/all-clear`, body: { message: 'The driver was stopped.' }, token: counted.token }]);
  });

  it("gives the all-clear in every language of the alert: each its own words, or Beacon's in that language, never the English", async () => {
    const es = adminAlert({
      ...base,
      channels: ['push', 'sms'],
      translations: {
        es: { title: 'Conductor en sentido contrario', message: 'Hacia el oeste.' },
        fr: { title: 'Conducteur à contresens', message: "Vers l'ouest." },
      },
    });
    const user = userEvent.setup();
    renderScreen(<AlertLifecycle alert={es} />);
    await user.click(screen.getByRole('button', { name: 'Give the all-clear' }));
    await user.type(screen.getByLabelText('All-clear message (optional)'), 'The driver was stopped.');
    await user.type(screen.getByLabelText('All-clear message in Spanish (optional)'), 'El conductor fue detenido.');
    await user.click(screen.getByRole('button', { name: 'Review the all-clear' }));
    const spanish = await within(dialog()).findByRole('group', { name: 'Spanish (Español) preview' });
    expect(spanish).toHaveTextContent('Fin de la alerta: Conductor en sentido contrario');
    expect(spanish).toHaveTextContent('El conductor fue detenido.');
    expect(spanish).not.toHaveTextContent('The driver was stopped.');
    expect(spanish).toHaveTextContent(/SMS.*1 segment/);
    const french = within(dialog()).getByRole('group', { name: 'French (Français) preview' });
    expect(french).toHaveTextContent('Le danger est passé. Cette alerte est terminée.');
    await user.click(within(dialog()).getByRole('button', { name: 'Send all-clear to 40 people' }));
    await screen.findByText(/^All clear given/);
    expect(posts[0].body).toEqual({ message: 'The driver was stopped.', translations: { es: { message: 'El conductor fue detenido.' } } });
  });

  it('previews the update for every language a reader may have: Korean with its own "Update:", French readers the English, said so', async () => {
    const ko = adminAlert({ ...base, channels: ['push', 'sms'], translations: { ko: { title: '역주행 차량', message: '7번가 근처에서 서쪽으로 이동 중.' } } });
    await reviewMessageUpdate(ko);
    await within(dialog()).findByRole('button', { name: 'Send update to 40 people' });
    const preview = within(dialog()).getByRole('region', { name: 'What the update says, per language and channel' });
    expect(within(preview).getAllByRole('group')).toHaveLength(6);
    const korean = within(preview).getByRole('group', { name: 'Korean (한국어) preview' });
    expect(korean).toHaveAttribute('lang', 'ko');
    expect(korean).toHaveTextContent('업데이트: 역주행 차량');
    expect(korean).not.toHaveTextContent('Update:');
    const french = within(preview).getByRole('group', { name: 'French (Français) preview' });
    expect(french).toHaveAttribute('lang', 'en');
    expect(french).toHaveTextContent('No French text: French readers get the English.');
    expect(french).toHaveTextContent('Update: Wrong-way driver on I-10Heading west near 7th St. Use I-17.');
  });

  it("previews the all-clear in Vietnamese with Beacon's own words when the admin wrote none in Vietnamese", async () => {
    const vi = adminAlert({ ...base, channels: ['push', 'email'], translations: { vi: { title: 'Xe đi ngược chiều', message: 'Đang đi về phía tây.' } } });
    const user = userEvent.setup();
    renderScreen(<AlertLifecycle alert={vi} />);
    await user.click(screen.getByRole('button', { name: 'Give the all-clear' }));
    await user.type(screen.getByLabelText('All-clear message (optional)'), 'The driver was stopped.');
    await user.click(screen.getByRole('button', { name: 'Review the all-clear' }));
    const preview = await within(dialog()).findByRole('region', { name: 'What the all-clear says, per language and channel' });
    const vietnamese = within(preview).getByRole('group', { name: 'Vietnamese (Tiếng Việt) preview' });
    expect(vietnamese).toHaveAttribute('lang', 'vi');
    expect(vietnamese).toHaveTextContent('Hết cảnh báo: Xe đi ngược chiềuNguy hiểm đã qua. Cảnh báo này đã kết thúc.');
    // the critical alert's all-clear is never urgent: high, in Vietnamese words
    expect(vietnamese).toHaveTextContent('Subject: [Cao] Hết cảnh báo: Xe đi ngược chiều');
    expect(vietnamese).not.toHaveTextContent('The driver was stopped.');
    // readers of a language the alert has no text in get the English alert, and so the English all-clear
    const korean = within(preview).getByRole('group', { name: 'Korean (한국어) preview' });
    expect(korean).toHaveTextContent('No Korean text: Korean readers get the English.');
    expect(korean).toHaveTextContent('All clear: Wrong-way driver on I-10The driver was stopped.');
  });

  it('offers nothing to do for an alert not in effect or still being dispatched', () => {
    renderScreen(<AlertLifecycle alert={adminAlert({ status: 'cancelled', recipients: 3 })} />);
    expect(screen.queryByRole('button', { name: 'Update alert' })).not.toBeInTheDocument();
    renderScreen(<AlertLifecycle alert={adminAlert({ status: 'active', recipients: null })} />);
    expect(screen.queryByRole('button', { name: 'Give the all-clear' })).not.toBeInTheDocument();
  });

  it('offers a viewer neither the update nor the all-clear (a read-only console)', () => {
    renderAs('viewer', <AlertLifecycle alert={base} />);
    expect(screen.queryByRole('button', { name: 'Update alert' })).not.toBeInTheDocument();
    expect(screen.queryByRole('button', { name: 'Give the all-clear' })).not.toBeInTheDocument();
  });

  it('holds the review back while an SMS would be too long in one language', async () => {
    const user = userEvent.setup();
    renderScreen(<AlertLifecycle alert={adminAlert({ ...base, channels: ['sms'] })} />);
    await user.click(screen.getByRole('button', { name: 'Update alert' }));
    fireEvent.change(screen.getByLabelText('Message'), { target: { value: 'Ж'.repeat(700) } });
    expect(screen.getByRole('button', { name: 'Review the update' })).toBeDisabled();
    expect(screen.getByText(/the SMS would take more than 10 segments/)).toBeInTheDocument();
  });

  it('lists the versions, the all-clear with its words, and user text as text', async () => {
    versions = [
      v({}),
      v({ version: 2, kind: 'update', title: '<b>Now on I-17</b>', changed: ['title', 'area'], at: '2026-11-25T10:20:00.000Z', notified: 12 }),
      v({ version: 3, kind: 'all_clear', at: '2026-11-25T10:40:00.000Z', notified: null }),
    ];
    renderScreen(
      <AlertLifecycle alert={adminAlert({ ...base, version: 3, status: 'all_clear', allClear: { at: '2026-11-25T10:40:00.000Z', message: 'Roads open.' } })} />,
    );
    const list = await screen.findByRole('list', { name: 'Versions' });
    expect(list.children).toHaveLength(3);
    expect(list).toHaveTextContent('Version 2 · Updated (title, area) by dispatch@city.example');
    expect(list).toHaveTextContent('12 messages');
    expect(list).toHaveTextContent('Version 3 · All clear given');
    expect(list).toHaveTextContent('being sent');
    expect(screen.getByText('<b>Now on I-17</b>')).toBeInTheDocument();
    expect(screen.getByText(/All clear given .*: Roads open\./)).toBeInTheDocument();
  });
});

describe('Update an alert of several parts (issue #42)', () => {
  const KINGS: [number, number][] = [
    [45.0, -64.6],
    [45.0, -64.4],
    [45.2, -64.4],
    [45.0, -64.6],
  ];
  const HANTS: [number, number][] = [
    [45.0, -64.2],
    [45.0, -64.0],
    [45.2, -64.1],
    [45.0, -64.2],
  ];
  const multi = adminAlert({
    ...base,
    lat: 45.1,
    lng: -64.3,
    radiusKm: null,
    area: {
      type: 'multi',
      parts: [
        { type: 'polygon', points: KINGS, description: 'Kings County' },
        { type: 'polygon', points: HANTS },
        { type: 'circle', lat: 45.3, lng: -64.3, radiusKm: 4, description: 'Wolfville' },
      ],
    },
  });
  const items = () =>
    within(screen.getByRole('list', { name: 'Parts of the area' }))
      .getAllByRole('listitem')
      .map((li) => li.querySelector('span')?.textContent);

  it('opens on its parts; removes one, edits one, names one, adds a circle, and sends the whole new area', async () => {
    const user = userEvent.setup();
    renderScreen(<AlertLifecycle alert={multi} />);
    await user.click(screen.getByRole('button', { name: 'Update alert' }));
    expect(items()).toEqual([
      'Kings County · Polygon with 3 corners · editing on the map',
      'Part 2 · Polygon with 3 corners',
      'Wolfville · Circle, 4 km around 45.3, -64.3',
    ]);
    // The part edited on the map, the others drawn beside it.
    expect(await screen.findByRole('button', { name: 'New area map: click to add a corner of the polygon' })).toHaveAttribute('data-parts', 'polygon circle');

    await user.click(screen.getByRole('button', { name: 'Remove part 3' }));
    await user.click(screen.getByRole('button', { name: 'Edit part 2' }));
    await user.type(screen.getByLabelText('Add a point by coordinates'), '45.1, -64.25');
    await user.click(screen.getByRole('button', { name: 'Add point' }));
    await user.type(screen.getByLabelText('Name of part 2 (optional)'), 'Hants County');
    await user.click(screen.getByRole('button', { name: 'Add a circle' }));
    // An unplaced circle holds the update back, and says why beside it.
    expect(screen.getByRole('button', { name: 'Review the update' })).toBeDisabled();
    expect(screen.getByText('No centre yet: click the map to place this circle')).toBeInTheDocument();
    await user.click(await screen.findByRole('button', { name: 'New area map: click to place the centre' }));

    await user.click(screen.getByRole('button', { name: 'Review the update' }));
    expect(await within(dialog()).findByText('Changes: area.')).toBeInTheDocument();
    expect(await within(dialog()).findByRole('button', { name: `Area after the update of ${multi.title}` })).toHaveAttribute(
      'data-parts',
      'polygon polygon circle',
    );
    await user.click(await within(dialog()).findByRole('button', { name: 'Send update to 40 people' }));
    expect(await screen.findByText('Version 2 is going out to 40 people.')).toBeInTheDocument();
    expect(posts[0].body).toEqual({
      revision: 1,
      area: {
        type: 'multi',
        parts: [
          { type: 'polygon', points: KINGS.slice(0, 3), description: 'Kings County' },
          { type: 'polygon', points: [...HANTS.slice(0, 3), [45.1, -64.25]], description: 'Hants County' },
          { type: 'circle', lat: 33.45, lng: -111.9, radiusKm: 50 },
        ],
      },
    });
  });

  it('sends no area when its parts are left as they were', () => {
    const draft = { title: multi.title, message: multi.message, severity: multi.severity, locationName: '', translations: {}, expiresAt: '', groups: [] };
    expect(changesOf(multi, { ...draft, area: areaValuesOf(multi.area!) })).toEqual({ revision: 1 });
  });
});

describe('changesOf / versionText', () => {
  it('nothing changed: only the revision', () => {
    expect(
      changesOf(base, {
        title: base.title,
        message: base.message,
        severity: 'critical',
        locationName: '',
        area: { ...AREA_DEFAULTS, lat: 33.45, lng: -112.07, radiusKm: '5' },
        translations: {},
        expiresAt: '',
        groups: [],
      }),
    ).toEqual({
      revision: 1,
    });
  });

  it('says an original version as sent', () => {
    expect(versionText(v({}))).toMatch(/^Version 1 · Sent by dispatch@city\.example · /);
  });
});

describe("An alert's contact groups in the draft edit and the update (issue #42)", () => {
  const contactGroup = (g: AlertTargetGroup): ContactGroup => ({ ...g, description: '', createdAt: base.createdAt, updatedAt: base.createdAt });
  const ROAD_CREWS: AlertTargetGroup = { id: '00000000-0000-4000-8000-00000000c001', name: 'Road crews', memberCount: 12, externalCount: 3 };
  const NIGHT_SHIFT: AlertTargetGroup = { id: '00000000-0000-4000-8000-00000000c002', name: 'Night shift', memberCount: 1, externalCount: 0 };
  const SCHOOL: AlertTargetGroup = { id: '00000000-0000-4000-8000-00000000c003', name: 'Lincoln Elementary staff', memberCount: 40, externalCount: 0 };
  beforeEach(() => {
    groupList = [NIGHT_SHIFT, ROAD_CREWS, SCHOOL].map(contactGroup);
  });
  const chips = () =>
    within(screen.getByRole('list', { name: 'Chosen contact groups' }))
      .getAllByRole('listitem')
      .map((li) => li.firstElementChild?.textContent);
  const groupsOnly = (o: Partial<AdminAlert> = {}) =>
    adminAlert({ ...base, lat: null, lng: null, radiusKm: null, area: null, groups: [ROAD_CREWS, NIGHT_SHIFT], ...o });

  it('a draft shows its groups; removing one and adding another saves the groups whole, nothing else', async () => {
    const draft = groupsOnly({ status: 'draft', recipients: null, sentAt: null });
    answer = (_path, body) => json(adminAlert({ ...draft, ...body, status: 'draft' }));
    const user = userEvent.setup();
    renderScreen(<AlertLifecycle alert={draft} />);
    await user.click(screen.getByRole('button', { name: 'Edit draft' }));
    expect(chips()).toEqual(['Road crews 12 members, of them 3 without an account', 'Night shift 1 member']);

    await user.click(screen.getByRole('button', { name: 'Remove Night shift' }));
    await user.click(await screen.findByRole('checkbox', { name: /^Lincoln Elementary staff/ }));
    await user.click(screen.getByRole('button', { name: 'Save draft' }));
    expect(await screen.findByText('Draft saved.')).toBeInTheDocument();
    expect(posts[0].body).toEqual({ revision: 1, groupIds: [ROAD_CREWS.id, SCHOOL.id] });
  });

  it('an update of an alert in effect may change its groups: sent whole, named in the changes and the confirmation', async () => {
    const sent = adminAlert({ ...base, groups: [ROAD_CREWS] });
    const user = userEvent.setup();
    renderScreen(<AlertLifecycle alert={sent} />);
    await user.click(screen.getByRole('button', { name: 'Update alert' }));
    await user.click(await screen.findByRole('checkbox', { name: /^Night shift/ }));
    await user.click(screen.getByRole('button', { name: 'Review the update' }));
    await within(dialog()).findByRole('button', { name: 'Send update to 40 people' });
    const body = { revision: 1, groupIds: [ROAD_CREWS.id, NIGHT_SHIFT.id] };
    expect(previews).toEqual([{ path: `/api/alerts/${sent.id}/update/audience`, body }]);
    expect(dialog()).toHaveTextContent('Changes: contact groups.');
    expect(dialog()).toHaveTextContent('Contact groups after the update: Road crews and Night shift.');
    await user.click(within(dialog()).getByRole('button', { name: 'Send update to 40 people' }));
    expect(await screen.findByText('Version 2 is going out to 40 people.')).toBeInTheDocument();
    expect(posts).toEqual([{ path: `/api/alerts/${sent.id}/update`, body, token: counted.token }]);
  });

  it('keeps an alert in effect without an area from losing its last group', async () => {
    const user = userEvent.setup();
    renderScreen(<AlertLifecycle alert={groupsOnly({ groups: [ROAD_CREWS] })} />);
    await user.click(screen.getByRole('button', { name: 'Update alert' }));
    await user.click(screen.getByRole('button', { name: 'Remove Road crews' }));
    expect(screen.getByRole('alert')).toHaveTextContent('This alert has no area: keep at least one contact group, or draw an area');
    expect(screen.getByRole('button', { name: 'Review the update' })).toBeDisabled();
    await user.click(await screen.findByRole('checkbox', { name: /^Road crews/ }));
    expect(screen.queryByRole('alert')).not.toBeInTheDocument();
  });

  it('says an alert that went to everyone takes no groups unless it gets an area', async () => {
    const user = userEvent.setup();
    renderScreen(<AlertLifecycle alert={adminAlert({ ...base, lat: null, lng: null, radiusKm: null, area: null })} />);
    await user.click(screen.getByRole('button', { name: 'Update alert' }));
    expect(screen.getByText(/This alert went to everyone, everywhere: contact groups cannot be added/)).toBeInTheDocument();
    expect(screen.queryByRole('searchbox', { name: 'Search contact groups' })).not.toBeInTheDocument();
    await user.click(screen.getByRole('button', { name: 'Draw the area' }));
    expect(screen.getByRole('searchbox', { name: 'Search contact groups' })).toBeInTheDocument();
  });

  it("puts the server's refusal of a group at the groups, by the group's name", async () => {
    const draft = groupsOnly({ status: 'draft', recipients: null, sentAt: null });
    answer = () => json({ statusCode: 400, code: 'alert_group_not_found', message: `Contact group ${NIGHT_SHIFT.id} does not exist` }, 400);
    const user = userEvent.setup();
    renderScreen(<AlertLifecycle alert={draft} />);
    await user.click(screen.getByRole('button', { name: 'Edit draft' }));
    await user.type(screen.getByLabelText('Message'), ' Use I-17.');
    await user.click(screen.getByRole('button', { name: 'Save draft' }));
    const error = await screen.findByRole('alert');
    expect(error).toHaveTextContent('“Night shift” no longer exists (it was deleted after you chose it): remove it, then send again.');
    expect(screen.getByRole('group', { name: 'Contact groups (optional)' })).toContainElement(error);
    await user.click(screen.getByRole('button', { name: 'Remove Night shift' }));
    expect(screen.queryByRole('alert')).not.toBeInTheDocument();
  });

  it('sends no groups when they are left as they were, whatever their order', () => {
    const a = adminAlert({ ...base, groups: [ROAD_CREWS, NIGHT_SHIFT] });
    const same = { title: a.title, message: a.message, severity: a.severity, locationName: '', translations: {}, expiresAt: '', area: null };
    expect(changesOf(a, { ...same, groups: [NIGHT_SHIFT, ROAD_CREWS] })).toEqual({ revision: 1 });
    expect(changesOf(a, { ...same, groups: [] })).toEqual({ revision: 1, groupIds: [] });
  });
});

import { act, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import toast, { Toaster } from 'react-hot-toast';
import { DEFAULT_PREFERENCES, type UserAlert } from '@beacon/contracts';
import { inLanguage } from '@/test/in-language';
import { jsonResponse as json } from '@/test/json-response';
import { renderSignedIn } from '@/test/render-screen';
import { resetFakeSocket } from '@/test/fake-socket';
import { PERSON, pageOf, requestOf, userAlert } from './test-utils';
import { UserAlertsPage } from './UserAlertsPage';

jest.mock('@/app/socket', () => jest.requireActual('@/test/fake-socket'));

const ago = (minutes: number) => new Date(Date.now() - minutes * 60_000).toISOString();
let mine: UserAlert[];
let dismissed: string[];
let dismissAnswer: () => Response;

beforeEach(() => {
  resetFakeSocket();
  mine = [];
  dismissed = [];
  dismissAnswer = () => json({ alertId: 'x', dismissedAt: new Date().toISOString() });
  global.fetch = jest.fn(async (input: RequestInfo | URL) => {
    const { req, path } = requestOf(input);
    if (path === '/api/alerts/me/preferences') return json(DEFAULT_PREFERENCES);
    if (path === '/api/alerts/me/alerts') return json(pageOf(mine.filter((a) => !dismissed.includes(a.id))));
    if (path === '/api/alerts/me/alerts/unread-count') return json({ count: 0 });
    const dismiss = path.match(/^\/api\/alerts\/me\/alerts\/([^/]+)\/dismiss$/);
    if (dismiss && req.method === 'POST') {
      const res = dismissAnswer();
      if (res.ok) dismissed.push(dismiss[1]);
      return res;
    }
    return json({ error: 'not_found', message: 'Not found' }, 404);
  }) as unknown as typeof fetch;
});

afterEach(() => act(() => toast.remove()));

async function renderAlerts(language?: 'es') {
  const user = userEvent.setup();
  const page = (
    <>
      <UserAlertsPage />
      <Toaster />
    </>
  );
  renderSignedIn(language ? inLanguage(language, page) : page, { user: PERSON, path: '/alerts' });
  await screen.findByRole('list', { name: language ? 'Sus alertas' : 'Your alerts' });
  return user;
}

const card = (title: string) => screen.getByRole('listitem', { name: new RegExp(title) });

describe('an alert card: what changed, and when', () => {
  it('says what its latest update changed, and counts its age from that change', async () => {
    mine = [
      userAlert({
        title: 'Wrong-way driver on I-10',
        severity: 'critical',
        createdAt: ago(3 * 60),
        version: 2,
        lastChange: { version: 2, kind: 'update', at: ago(2), fields: ['severity', 'message'], severityFrom: 'high' },
      }),
    ];
    await renderAlerts();
    const c = card('Wrong-way driver on I-10');
    expect(within(c).getByText('Updated 2m ago: severity raised to Critical and new instructions')).toBeInTheDocument();
    expect(within(c).getByText('2m ago')).toBeInTheDocument();
    expect(within(c).queryByText('3h ago')).not.toBeInTheDocument();
    expect(within(c).getByText('Critical')).toBeInTheDocument();
  });
});

describe('an ended alert', () => {
  it('turns calm: "All clear" with its time and closing words, no danger badge, no unread mark, the instructions folded away', async () => {
    mine = [
      userAlert({
        title: 'Chlorine leak at the plant',
        message: 'Stay indoors and close the windows.',
        severity: 'critical',
        status: 'all_clear',
        version: 3,
        allClear: { at: '2025-03-05T22:07:00Z', message: 'The leak is sealed.' },
        lastChange: { version: 3, kind: 'all_clear', at: '2025-03-05T22:07:00Z', fields: [], severityFrom: null },
      }),
    ];
    await renderAlerts();
    const c = card('Chlorine leak at the plant');
    expect(c).toHaveClass('ended');
    expect(c).not.toHaveClass('sev-critical');
    expect(within(c).getByText('All clear')).toBeInTheDocument();
    expect(within(c).queryByText('Critical')).not.toBeInTheDocument();
    expect(within(c).queryByText('(unread)')).not.toBeInTheDocument();
    expect(within(c).getByText(/^All clear given Mar 5, 2025/)).toBeInTheDocument();
    expect(within(c).getByText('The leak is sealed.')).toBeInTheDocument();
    expect(within(c).getByText('Stay indoors and close the windows.').closest('details')).not.toHaveAttribute('open');
    expect(within(c).queryByRole('button', { name: /I'm Safe|Request help/ })).not.toBeInTheDocument();
    // and the page's critical banner does not call it critical any more
    expect(screen.queryByText(/CRITICAL ALERT/)).not.toBeInTheDocument();
  });

  it('reads "Ended" once its time has passed, even before the server marks it expired', async () => {
    mine = [userAlert({ title: 'Boil water notice', severity: 'high', expiresAt: ago(5) })];
    await renderAlerts();
    const c = card('Boil water notice');
    expect(within(c).getByText('Ended')).toBeInTheDocument();
    expect(within(c).getByText('This alert has ended. Nothing more needs to be done.')).toBeInTheDocument();
    expect(within(c).queryByText('High')).not.toBeInTheDocument();
  });

  it('can be dismissed: it leaves the list', async () => {
    mine = [userAlert({ title: 'Water main break', status: 'cancelled' }), userAlert({ title: 'Heat advisory' })];
    const user = await renderAlerts();
    expect(within(card('Heat advisory')).queryByRole('button', { name: /Dismiss/ })).not.toBeInTheDocument();
    await user.click(within(card('Water main break')).getByRole('button', { name: 'Dismiss: Water main break' }));
    expect(await screen.findByText('Alert dismissed')).toBeInTheDocument();
    await waitFor(() => expect(screen.queryByRole('listitem', { name: /Water main break/ })).not.toBeInTheDocument());
    expect(card('Heat advisory')).toBeInTheDocument();
  });

  it('says why it cannot be dismissed', async () => {
    mine = [userAlert({ title: 'Water main break', status: 'cancelled' })];
    dismissAnswer = () => json({ statusCode: 409, code: 'alert_in_effect', message: 'This alert is still in effect: it cannot be dismissed' }, 409);
    const user = await renderAlerts();
    await user.click(screen.getByRole('button', { name: 'Dismiss: Water main break' }));
    expect(await screen.findByText('This alert is still in effect: it cannot be dismissed')).toBeInTheDocument();
    expect(card('Water main break')).toBeInTheDocument();
  });
});

describe('an alert card in Spanish (issue #41)', () => {
  it('has Spanish buttons and words, and marks the alert’s own text with the language it is in', async () => {
    mine = [
      userAlert({ title: 'Inundación repentina', message: 'Suba a un terreno más alto ahora.', language: 'es', severity: 'high', createdAt: ago(5) }),
      // no Spanish text for this one: the feed gives it in English
      userAlert({ title: 'Heat advisory', message: 'Drink water and stay inside.', language: 'en', severity: 'medium', category: 'health' }),
    ];
    await renderAlerts('es');
    const flood = card('Inundación repentina');
    expect(within(flood).getByRole('button', { name: 'Estoy a salvo: Inundación repentina' })).toHaveTextContent('Estoy a salvo');
    expect(within(flood).getByRole('button', { name: 'Pedir ayuda: Inundación repentina' })).toHaveTextContent('Pedir ayuda');
    expect(within(flood).getByText('Alta')).toBeInTheDocument();
    expect(within(flood).getByText('Clima')).toBeInTheDocument();
    expect(within(flood).getByText('hace 5 min')).toBeInTheDocument();
    expect(within(flood).getByRole('link', { name: 'Inundación repentina' })).toHaveAttribute('lang', 'es');
    expect(within(flood).getByText('Suba a un terreno más alto ahora.')).toHaveAttribute('lang', 'es');

    const heat = card('Heat advisory');
    expect(within(heat).getByRole('link', { name: 'Heat advisory' })).toHaveAttribute('lang', 'en');
    expect(within(heat).getByText('Drink water and stay inside.')).toHaveAttribute('lang', 'en');
    expect(within(heat).getByText('Salud')).toBeInTheDocument();
    expect(within(heat).getByRole('button', { name: 'Pedir ayuda: Heat advisory' })).toBeInTheDocument();
    expect(screen.getByText('2 alertas')).toBeInTheDocument();
  });

  it('ends calmly in Spanish: Beacon’s words the reader’s, the all-clear’s default words in the alert’s language', async () => {
    const cleared = { at: '2025-03-05T22:07:00Z', message: null };
    mine = [
      userAlert({ title: 'Fuga de cloro', message: 'Quédese adentro.', language: 'es', status: 'all_clear', allClear: cleared }),
      userAlert({ title: 'Chlorine leak', message: 'Stay indoors.', language: 'en', status: 'all_clear', allClear: cleared }),
      userAlert({ title: 'Water main break', language: 'en', status: 'cancelled' }),
    ];
    await renderAlerts('es');
    const es = card('Fuga de cloro');
    expect(within(es).getByText('Fin de la alerta')).toBeInTheDocument();
    expect(within(es).getByText(/^Fin de la alerta: 5 mar 2025/)).toBeInTheDocument();
    expect(within(es).getByText('El peligro ha pasado. Esta alerta ha terminado.')).toHaveAttribute('lang', 'es');
    expect(within(es).getByText('Lo que decía la alerta')).toBeInTheDocument();

    const en = card('Chlorine leak');
    expect(within(en).getByText('Fin de la alerta')).toBeInTheDocument();
    expect(within(en).getByText('The danger has passed. This alert has ended.')).toHaveAttribute('lang', 'en');

    const cancelled = card('Water main break');
    expect(within(cancelled).getByText('Terminada')).toBeInTheDocument();
    expect(within(cancelled).getByText('Esta alerta se canceló: no hay nada que hacer.')).not.toHaveAttribute('lang');
    expect(within(cancelled).getByRole('button', { name: 'Descartar: Water main break' })).toHaveTextContent('Descartar');
  });
});

import { render, screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { Provider } from 'react-redux';
import { DEFAULT_PREFERENCES, type AlertPreferences } from '@beacon/contracts';
import { makeStore } from '@/app/store';
import { jsonResponse } from '@/test/json-response';
import { renderSignedIn } from '@/test/render-screen';
import { LanguageSwitch } from './LanguageSwitch';
import { LanguageSync } from './LanguageSync';

const USER = { id: '00000000-0000-4000-8000-000000000041', email: 'lee@example.com', role: 'user' } as const;
let saved: AlertPreferences;
let puts: Partial<AlertPreferences>[];

beforeEach(() => {
  localStorage.clear();
  saved = structuredClone(DEFAULT_PREFERENCES);
  puts = [];
  global.fetch = jest.fn(async (input: RequestInfo | URL) => {
    const req = input as Request;
    if (new URL(req.url).pathname !== '/api/alerts/me/preferences') return jsonResponse({ code: 'not_found', message: 'Not found' }, 404);
    if (req.method === 'PUT') {
      const body = await req.json();
      puts.push(body);
      saved = { ...saved, ...body };
    }
    return jsonResponse(saved);
  }) as unknown as typeof fetch;
});

it("switches a visitor's app at once and keeps the choice on this device only", async () => {
  const user = userEvent.setup();
  render(
    <Provider store={makeStore()}>
      <LanguageSwitch />
    </Provider>,
  );
  await user.selectOptions(screen.getByLabelText('Language'), '한국어');
  expect(await screen.findByLabelText('언어')).toHaveValue('ko');
  expect(screen.getByRole('option', { name: '한국어' })).toHaveAttribute('lang', 'ko');
  expect(localStorage.getItem('beacon.language')).toBe('ko');
  expect(global.fetch).not.toHaveBeenCalled();
});

it("saves a signed-in person's choice as the language their alerts come in", async () => {
  const user = userEvent.setup();
  renderSignedIn(<LanguageSwitch />, { user: USER });
  await user.selectOptions(screen.getByLabelText('Language'), 'Español');
  await screen.findByLabelText('Idioma');
  await waitFor(() => expect(puts).toEqual([{ language: 'es' }]));
});

it('applies the language a signed-in person saved on another device', async () => {
  saved = { ...saved, language: 'vi' };
  renderSignedIn(
    <>
      <LanguageSync />
      <LanguageSwitch />
    </>,
    { user: USER },
  );
  expect(await screen.findByLabelText('Ngôn ngữ')).toHaveValue('vi');
  expect(puts).toEqual([]);
});

import { act, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import toast, { Toaster } from 'react-hot-toast';
import type { AlertTemplate } from '@beacon/contracts';
import { jsonResponse as json } from '@/test/json-response';
import { CreateAlertPage } from './CreateAlertPage';
import { QuickSendPage } from './QuickSendPage';
import { AlertTranslationsList } from './AlertLanguages';
import { adminAlert, renderScreen, requestOf } from './test-utils';

jest.mock('@/app/socket', () => jest.requireActual('@/test/fake-socket'));
jest.mock('@/features/alerts/AreaMap', () => ({ __esModule: true, default: () => <p>map</p> }));

const wrongWay: AlertTemplate = {
  id: '00000000-0000-4000-8000-0000000000aa',
  name: 'Wrong-way driver',
  type: 'Traffic',
  category: 'traffic',
  severity: 'critical',
  title: 'Wrong-way driver reported',
  message: 'A driver is going the wrong way on the road near you. Call 911.',
  translations: { es: { title: 'Conductor en sentido contrario', message: 'Un conductor circula en sentido contrario. Llame al 911.' } },
  channels: ['push', 'sms'],
  radiusKm: 10,
  createdAt: '2026-11-25T09:00:00.000Z',
  updatedAt: '2026-11-25T09:00:00.000Z',
};

let templates: AlertTemplate[];
let posts: { path: string; body: Record<string, unknown> }[];
let deletes: string[];
let templateAnswer: (() => Response) | null;

beforeEach(() => {
  templates = [wrongWay];
  posts = [];
  deletes = [];
  templateAnswer = null;
  global.fetch = jest.fn(async (input: RequestInfo | URL) => {
    const { req, path } = requestOf(input);
    if (path === '/api/alerts/templates' && req.method === 'GET') return json(templates);
    if (path === '/api/alerts/templates' && req.method === 'POST') {
      const body = await req.json();
      posts.push({ path, body });
      if (templateAnswer) return templateAnswer();
      const saved = { ...wrongWay, ...body, id: '00000000-0000-4000-8000-0000000000bb' };
      templates = [...templates, saved];
      return json(saved, 201);
    }
    if (path.startsWith('/api/alerts/templates/') && req.method === 'DELETE') {
      const id = path.split('/').pop()!;
      deletes.push(id);
      templates = templates.filter((t) => t.id !== id);
      return json({ ok: true });
    }
    if (path === '/api/alerts/audience')
      return json({ token: 'token-1', concerned: 1, recipients: 1, held: 0, channels: {}, unreachable: { noChannel: 0, noDevice: 0 } });
    if (path === '/api/alerts' && req.method === 'POST') {
      posts.push({ path, body: await req.json() });
      return json(adminAlert({ title: 'sent' }), 201);
    }
    return json({ error: 'not_found', message: 'Not found' }, 404);
  }) as unknown as typeof fetch;
});
afterEach(() => act(() => toast.remove()));

function render(ui: React.ReactElement, path: string) {
  const user = userEvent.setup();
  renderScreen(
    <>
      {ui}
      <Toaster />
    </>,
    { path },
  );
  return { user };
}

/** Types the centre of the alert's area (an area is required: issue #38). */
async function placeArea(user: ReturnType<typeof userEvent.setup>) {
  await user.type(screen.getByLabelText('Latitude'), '33.45');
  await user.type(screen.getByLabelText('Longitude'), '-112.07');
}

const segmentsRow = (language: string) =>
  within(screen.getByRole('region', { name: 'SMS length per language' })).getByRole('row', { name: new RegExp(`^${language}`) });

describe('the wizard in more than one language', () => {
  it('starts from a template: texts in each language, severity, category, channels and radius', async () => {
    const { user } = render(<CreateAlertPage />, '/admin/create-alert');
    await user.selectOptions(await screen.findByLabelText('Start from a template'), await screen.findByRole('option', { name: 'Wrong-way driver' }));
    expect(screen.getByLabelText('Alert Title')).toHaveValue(wrongWay.title);
    expect(screen.getByLabelText('Message')).toHaveValue(wrongWay.message);
    expect(screen.getByLabelText('Spanish title')).toHaveValue('Conductor en sentido contrario');
    expect(screen.getByLabelText('Spanish message')).toHaveValue('Un conductor circula en sentido contrario. Llame al 911.');
    await user.click(screen.getByRole('button', { name: 'Next' }));
    expect(screen.getByRole('radio', { name: /critical/i })).toBeChecked();
    expect(screen.getByLabelText('Category')).toHaveValue('traffic');
    expect(screen.getByRole('checkbox', { name: 'SMS' })).toBeChecked();
    expect(screen.getByRole('checkbox', { name: 'Email' })).not.toBeChecked();
    await user.click(screen.getByRole('button', { name: 'Next' }));
    expect(screen.getByLabelText('Radius (km)')).toHaveValue(10);
  });

  it('sends the translations it was given, and checks them like the English', async () => {
    const { user } = render(<CreateAlertPage />, '/admin/create-alert');
    await user.type(screen.getByLabelText('Alert Title'), 'Flood warning');
    await user.type(screen.getByLabelText('Message'), 'Move to higher ground now.');
    await user.selectOptions(screen.getByLabelText('Language to add'), 'es');
    await user.click(screen.getByRole('button', { name: 'Add language' }));
    await user.type(screen.getByLabelText('Spanish title'), 'Hola');
    await user.click(screen.getByRole('button', { name: 'Next' }));
    expect(screen.getByText('Spanish title must be at least 5 characters')).toBeInTheDocument();
    expect(screen.getByText('Spanish message must be at least 10 characters')).toBeInTheDocument();
    await user.type(screen.getByLabelText('Spanish title'), ' inundación');
    await user.type(screen.getByLabelText('Spanish message'), 'Suba a terreno alto ahora.');
    await user.click(screen.getByRole('button', { name: 'Next' }));
    await user.click(screen.getByRole('button', { name: 'Next' }));
    await placeArea(user);
    await user.click(screen.getByRole('button', { name: 'Next' }));
    expect(screen.getByText('English, Spanish (Español)')).toBeInTheDocument();
    await user.click(await screen.findByRole('button', { name: /^Send to/ }));
    await waitFor(() => expect(posts.filter((p) => p.path === '/api/alerts')).toHaveLength(1));
    expect(posts[0].body.translations).toEqual({ es: { title: 'Hola inundación', message: 'Suba a terreno alto ahora.' } });
  });

  it('shows each language’s SMS encoding, characters and segments as the admin types', async () => {
    const { user } = render(<CreateAlertPage />, '/admin/create-alert');
    await user.type(screen.getByLabelText('Alert Title'), 'Flood');
    await user.type(screen.getByLabelText('Message'), 'a'.repeat(154));
    // "Flood" + line break + 154 = 160: one GSM-7 segment; one more character makes two.
    expect(
      within(segmentsRow('English'))
        .getAllByRole('cell')
        .map((c) => c.textContent),
    ).toEqual(['GSM-7', '160', '1']);
    await user.type(screen.getByLabelText('Message'), '€');
    expect(
      within(segmentsRow('English'))
        .getAllByRole('cell')
        .map((c) => c.textContent),
    ).toEqual(['GSM-7', '161', '2']);
    await user.click(screen.getByRole('button', { name: 'Add language' }));
    await user.type(screen.getByLabelText('Spanish title'), 'Inundación 🌊');
    await user.type(screen.getByLabelText('Spanish message'), 'Suba ya.');
    expect(
      within(segmentsRow('Spanish'))
        .getAllByRole('cell')
        .map((c) => c.textContent),
    ).toEqual(['UCS-2', '21', '1']);
  });

  it('saves the form as a template and deletes the chosen one', async () => {
    const { user } = render(<CreateAlertPage />, '/admin/create-alert');
    await user.type(screen.getByLabelText('Template name'), 'Boil water');
    await user.click(screen.getByRole('button', { name: 'Save as template' }));
    expect(screen.getByRole('alert')).toHaveTextContent('Fix the form first');
    await user.type(screen.getByLabelText('Alert Title'), 'Boil water notice');
    await user.type(screen.getByLabelText('Message'), 'Boil tap water before drinking it.');
    await user.click(screen.getByRole('button', { name: 'Save as template' }));
    await waitFor(() => expect(posts).toHaveLength(1));
    expect(posts[0].body).toEqual({
      name: 'Boil water',
      type: 'Public Safety',
      category: 'public_safety',
      severity: 'medium',
      title: 'Boil water notice',
      message: 'Boil tap water before drinking it.',
      translations: {},
      channels: ['push'],
      radiusKm: 50,
    });
    expect(await screen.findByRole('option', { name: 'Boil water' })).toBeInTheDocument();

    templateAnswer = () =>
      json({ statusCode: 409, code: 'template_name_taken', message: 'A template named "Boil water" already exists: choose another name' }, 409);
    await user.type(screen.getByLabelText('Template name'), 'Boil water');
    await user.click(screen.getByRole('button', { name: 'Save as template' }));
    expect(await screen.findByText('A template named "Boil water" already exists: choose another name')).toBeInTheDocument();

    await user.selectOptions(screen.getByLabelText('Start from a template'), 'Wrong-way driver');
    await user.click(screen.getByRole('button', { name: 'Delete template' }));
    await waitFor(() => expect(deletes).toEqual([wrongWay.id]));
    await waitFor(() => expect(screen.queryByRole('option', { name: 'Wrong-way driver' })).not.toBeInTheDocument());
  });
});

describe('Quick Send in more than one language', () => {
  it('starts from a template: type, priority, texts and the channels it offers', async () => {
    const { user } = render(<QuickSendPage />, '/admin/quick-send');
    await user.selectOptions(await screen.findByLabelText('Start from a template'), await screen.findByRole('option', { name: 'Wrong-way driver' }));
    expect(screen.getByLabelText('Alert Type')).toHaveValue('Traffic');
    expect(screen.getByLabelText('Alert Title')).toHaveValue(wrongWay.title);
    expect(screen.getByLabelText('Message Body')).toHaveValue(wrongWay.message);
    expect(screen.getByLabelText('Spanish title')).toHaveValue('Conductor en sentido contrario');
    expect(screen.getByRole('radio', { name: 'High' })).toBeChecked();
    expect(screen.getByRole('checkbox', { name: 'SMS' })).toBeChecked();
    expect(screen.getByRole('checkbox', { name: 'Web Push' })).toBeChecked();
    expect(within(segmentsRow('Spanish')).getAllByRole('cell')[0]).toHaveTextContent('GSM-7');
    await placeArea(user);
    await user.click(screen.getByRole('button', { name: 'Send Alert' }));
    await user.click(await screen.findByRole('button', { name: /^Send to/ }));
    await waitFor(() => expect(posts.filter((p) => p.path === '/api/alerts')).toHaveLength(1));
    expect(posts[0].body).toMatchObject({ type: 'Traffic', priority: 'high', channels: ['web_push', 'sms'], translations: wrongWay.translations });
  });
});

describe("an alert's other languages on its admin page", () => {
  it('lists each translation with its language, as text', () => {
    render(<AlertTranslationsList translations={{ es: { title: '<b>Corte</b> de agua', message: 'Evite la calle 5.' } }} />, '/admin/alerts/x');
    const list = screen.getByRole('definition');
    expect(screen.getByRole('term')).toHaveTextContent('Spanish (Español)');
    expect(list).toHaveTextContent('<b>Corte</b> de agua');
    expect(list).toHaveAttribute('lang', 'es');
  });

  it('shows nothing for an alert in English only', () => {
    render(<AlertTranslationsList translations={{}} />, '/admin/alerts/x');
    expect(screen.queryByText('Other languages')).not.toBeInTheDocument();
  });
});

import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import type { ContactImportPreview } from '@beacon/contracts';
import { ContactImport } from './ContactImport';
import { fakeContactGroupsApi, renderAs } from './test-utils';

const CSV = [
  'name,phone,email,language',
  'Ana Ruiz,+15551230001,,es',
  'Minh Tran,+15551230002,minh@example.org,vi',
  'Lee North,,lee@example.org,',
  'No Contact,,,',
  'Bad Phone,555-1234,,en',
  'Ana Ruiz,+15551230001,,es',
].join('\r\n');

const PREVIEW: ContactImportPreview = {
  token: 'preview-token-1',
  create: [
    { name: 'Minh Tran', phone: '+15551230002', email: 'minh@example.org', language: 'vi' },
    { name: 'Lee North', email: 'lee@example.org' },
  ],
  update: [{ name: 'Ana Ruiz', phone: '+15551230001', language: 'es' }],
  unchanged: 4,
  rejected: [
    {
      line: 5,
      values: { name: 'No Contact', phone: '', email: '', language: '' },
      code: 'missing_contact',
      message: 'Give a phone number or an e-mail address.',
    },
    {
      line: 6,
      values: { name: 'Bad Phone', phone: '555-1234', email: '', language: 'en' },
      code: 'invalid_phone',
      message: 'Not a phone number in international format (+15551234567).',
    },
    {
      line: 7,
      values: { name: 'Ana Ruiz', phone: '+15551230001', email: '', language: 'es' },
      code: 'duplicate_in_file',
      message: 'The same contact as line 2.',
    },
  ],
};

const csvFile = (text = CSV, name = 'staff.csv') => new File([text], name, { type: 'text/csv' });

function setup() {
  const user = userEvent.setup();
  const api = fakeContactGroupsApi();
  api.state.preview = PREVIEW;
  renderAs('admin', <ContactImport groupId="g-1" />);
  return { user, api, file: screen.getByLabelText('CSV file') };
}

describe('CSV import of a contact group', () => {
  it('previews the file: what will be created, updated and left unchanged, and each rejected row with its line and reason', async () => {
    const { user, api, file } = setup();
    await user.upload(file, csvFile());
    expect(await screen.findByText('2 will be created, 1 updated, 4 unchanged.')).toBeInTheDocument();
    const status = screen.getByText('2 will be created, 1 updated, 4 unchanged.').closest('[role="status"]');
    expect(status).toHaveTextContent('3 rows are rejected and will not be imported. Nothing has been imported yet.');

    const preview = api.sent('POST', '/api/alerts/admin/contact-groups/g-1/import/preview');
    expect(preview).toHaveLength(1);
    expect(preview[0].contentType).toBe('text/csv');
    expect(preview[0].body).toBe(CSV);

    const table = screen.getByRole('table', { name: 'Rejected rows' });
    expect(
      within(table)
        .getAllByRole('columnheader')
        .map((h) => h.textContent),
    ).toEqual(['Line', 'Name', 'Phone', 'E-mail', 'Language', 'Reason']);
    const rows = within(table)
      .getAllByRole('row')
      .slice(1)
      .map((r) => [
        within(r).getByRole('rowheader').textContent,
        ...within(r)
          .getAllByRole('cell')
          .map((c) => c.textContent),
      ]);
    expect(rows).toEqual([
      ['5', 'No Contact', '', '', '', 'Give a phone number or an e-mail address.'],
      ['6', 'Bad Phone', '555-1234', '', 'en', 'Not a phone number in international format (+15551234567).'],
      ['7', 'Ana Ruiz', '+15551230001', '', 'es', 'The same contact as line 2.'],
    ]);
    // nothing is imported by the preview
    expect(api.sent('POST', '/api/alerts/admin/contact-groups/g-1/import')).toHaveLength(0);
  });

  it('imports only when the admin confirms the preview, with its token, and says what was done', async () => {
    const { user, api, file } = setup();
    api.state.importAnswer = { status: 200, body: { created: 2, updated: 1, unchanged: 4, rejected: 3 } };
    await user.upload(file, csvFile());
    const confirm = await screen.findByRole('button', { name: 'Import 3 contacts' });
    expect(api.sent('POST', '/api/alerts/admin/contact-groups/g-1/import')).toHaveLength(0);

    await user.click(confirm);
    expect(await screen.findByText(/^Import complete/)).toHaveTextContent('Import complete: 2 created, 1 updated, 4 unchanged, 3 rejected rows skipped.');
    expect(api.sent('POST', '/api/alerts/admin/contact-groups/g-1/import').map((r) => r.body)).toEqual([{ token: 'preview-token-1' }]);
    expect(screen.queryByRole('table', { name: 'Rejected rows' })).not.toBeInTheDocument();
    expect(screen.queryByRole('button', { name: /^Import \d/ })).not.toBeInTheDocument();
  });

  it('imports nothing when the admin cancels the preview', async () => {
    const { user, api, file } = setup();
    await user.upload(file, csvFile());
    await user.click(await screen.findByRole('button', { name: 'Cancel' }));
    expect(screen.queryByRole('button', { name: 'Import 3 contacts' })).not.toBeInTheDocument();
    expect(api.sent('POST', '/api/alerts/admin/contact-groups/g-1/import')).toHaveLength(0);
  });

  it('asks for a new preview when the group changed since this one, and previews the same file again', async () => {
    const { user, api, file } = setup();
    api.state.importAnswer = {
      status: 409,
      body: { statusCode: 409, code: 'import_preview_stale', message: 'The group changed since the preview.' },
    };
    await user.upload(file, csvFile());
    await user.click(await screen.findByRole('button', { name: 'Import 3 contacts' }));
    expect(await screen.findByRole('alert')).toHaveTextContent(
      'The group changed since this preview, so nothing was imported. Preview the file again to see what the import would do now.',
    );
    // the stale preview can no longer be confirmed
    expect(screen.queryByRole('button', { name: 'Import 3 contacts' })).not.toBeInTheDocument();

    api.state.preview = { ...PREVIEW, token: 'preview-token-2', create: [], update: [], unchanged: 7, rejected: [] };
    await user.click(screen.getByRole('button', { name: 'Preview Again' }));
    expect(await screen.findByText('0 will be created, 0 updated, 7 unchanged.')).toBeInTheDocument();
    expect(api.sent('POST', '/import/preview').map((r) => r.body)).toEqual([CSV, CSV]);
    expect(screen.getByText('Nothing to import: the valid rows are already in the group as they are.')).toBeInTheDocument();
    expect(screen.queryByRole('button', { name: /^Import \d/ })).not.toBeInTheDocument();
  });

  it('asks for a new preview when this one expired or was used already', async () => {
    const { user, api, file } = setup();
    api.state.importAnswer = {
      status: 409,
      body: { statusCode: 409, code: 'import_preview_expired', message: 'This import preview has expired or was already applied.' },
    };
    await user.upload(file, csvFile());
    await user.click(await screen.findByRole('button', { name: 'Import 3 contacts' }));
    expect(await screen.findByRole('alert')).toHaveTextContent('This preview has expired or was already used, so nothing was imported. Preview the file again');
    expect(screen.getByRole('button', { name: 'Preview Again' })).toBeInTheDocument();
  });

  it("shows the server's reason when the file cannot be checked", async () => {
    const { user, api, file } = setup();
    api.state.preview = null;
    global.fetch = jest.fn(
      async () =>
        new Response(JSON.stringify({ statusCode: 400, code: 'bad_request', message: 'The file has no header row naming a name column.' }), { status: 400 }),
    ) as unknown as typeof fetch;
    await user.upload(file, csvFile('Ana,+15551230001'));
    expect(await screen.findByRole('alert')).toHaveTextContent('The file has no header row naming a name column.');
    expect(screen.queryByRole('button', { name: /^Import/ })).not.toBeInTheDocument();
  });

  it('refuses a file over the size limit without sending it', async () => {
    const { user, api, file } = setup();
    const big = csvFile('x'.repeat(10));
    Object.defineProperty(big, 'size', { value: 3 * 1024 * 1024 });
    await user.upload(file, big);
    expect(await screen.findByRole('alert')).toHaveTextContent('staff.csv is larger than 2 MB. Split it into smaller files.');
    await waitFor(() => expect(api.sent('POST', '/import/preview')).toHaveLength(0));
  });
});

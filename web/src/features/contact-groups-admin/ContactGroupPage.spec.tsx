import { act, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import toast, { Toaster } from 'react-hot-toast';
import { ContactGroupPage } from './ContactGroupPage';
import type { ContactGroupAuditEntry } from '@beacon/contracts';
import { externalMember, fakeContactGroupsApi, group, renderAs, userMember } from './test-utils';

afterEach(() => act(() => toast.remove()));

const page = (
  <>
    <ContactGroupPage />
    <Toaster />
  </>
);
const at = { path: '/admin/contact-groups/:id', route: '/admin/contact-groups/g-1' };

const members = () => [
  userMember({ id: 'm-1', name: 'Pat Driver', email: 'pat.driver@example.com' }),
  externalMember({ id: 'm-2', name: 'Ana Ruiz', phone: '+15551230001', email: 'ana@example.org', language: 'es' }),
];

let auditSeq = 0;
const audit = (action: ContactGroupAuditEntry['action'], at: string, details: Record<string, unknown>): ContactGroupAuditEntry => ({
  id: `audit-${++auditSeq}`,
  action,
  actorId: '00000000-0000-4000-8000-0000000000ad',
  actorEmail: 'chief.ops@beacon.local',
  details,
  at,
});

const rowOf = (text: string) => screen.getByRole('cell', { name: text }).closest('tr')!;
const cellsOf = (text: string) =>
  within(rowOf(text))
    .getAllByRole('cell')
    .map((c) => c.textContent);

describe('Contact group (members)', () => {
  it('shows each member with kind, name, phone, e-mail and language', async () => {
    fakeContactGroupsApi({ groups: [group({ memberCount: 2, externalCount: 1 })], members: { 'g-1': members() } });
    renderAs('admin', page, at);
    expect(await screen.findByRole('heading', { level: 1, name: 'School staff' })).toBeInTheDocument();
    expect(screen.getByText('2 members, of whom 1 external contact')).toBeInTheDocument();
    const table = await screen.findByRole('table', { name: 'Members' });
    expect(
      within(table)
        .getAllByRole('columnheader')
        .map((h) => h.textContent),
    ).toEqual(['Kind', 'Name', 'Phone', 'E-mail', 'Language', 'Added', 'Actions']);
    expect(cellsOf('Ana Ruiz').slice(0, 5)).toEqual(['External contact', 'Ana Ruiz', '+15551230001', 'ana@example.org', 'Spanish (Español)']);
    expect(cellsOf('Pat Driver').slice(0, 5)).toEqual(['Beacon user', 'Pat Driver', '—', 'pat.driver@example.com', '—']);
  });

  it('searches the members on the server', async () => {
    const user = userEvent.setup();
    const api = fakeContactGroupsApi({ members: { 'g-1': members() } });
    renderAs('admin', page, at);
    await screen.findByRole('table', { name: 'Members' });
    await user.type(screen.getByLabelText('Search by name, phone or e-mail'), 'ana{Enter}');
    expect(await screen.findByText('1 member matches “ana”.')).toBeInTheDocument();
    expect(screen.queryByRole('cell', { name: 'Pat Driver' })).not.toBeInTheDocument();
    expect(api.sent('GET', '/members').at(-1)!.query.get('search')).toBe('ana');
    await user.click(screen.getByRole('button', { name: 'Clear search' }));
    expect(await screen.findByRole('cell', { name: 'Pat Driver' })).toBeInTheDocument();
  });

  it('adds a Beacon user by the e-mail of their account', async () => {
    const user = userEvent.setup();
    const api = fakeContactGroupsApi({ members: { 'g-1': [] } });
    renderAs('admin', page, at);
    expect(await screen.findByText('No members yet.')).toBeInTheDocument();
    const form = screen.getByRole('form', { name: 'Add a Beacon user' });
    await user.type(within(form).getByLabelText('Account e-mail'), ' lee.north@example.com ');
    await user.click(within(form).getByRole('button', { name: 'Add User' }));
    expect(await within(form).findByRole('status')).toHaveTextContent('lee.north@example.com added to the group.');
    expect(api.sent('POST', '/members').map((r) => r.body)).toEqual([{ kind: 'user', email: 'lee.north@example.com' }]);
    expect(within(form).getByLabelText('Account e-mail')).toHaveValue('');
    expect(await screen.findByRole('cell', { name: 'lee.north@example.com' })).toBeInTheDocument();
  });

  it("shows the server's reason when no account has that e-mail", async () => {
    const user = userEvent.setup();
    const api = fakeContactGroupsApi({ members: { 'g-1': [] } });
    api.state.addRefusal = { status: 404, body: { statusCode: 404, code: 'user_not_found', message: 'No Beacon account has the e-mail nobody@example.com.' } };
    renderAs('admin', page, at);
    const form = await screen.findByRole('form', { name: 'Add a Beacon user' });
    await user.type(within(form).getByLabelText('Account e-mail'), 'nobody@example.com');
    await user.click(within(form).getByRole('button', { name: 'Add User' }));
    expect(await within(form).findByRole('alert')).toHaveTextContent('No Beacon account has the e-mail nobody@example.com.');
    expect(within(form).getByLabelText('Account e-mail')).toHaveValue('nobody@example.com');
  });

  it('adds an external contact with a phone, an e-mail and a language', async () => {
    const user = userEvent.setup();
    const api = fakeContactGroupsApi({ members: { 'g-1': [] } });
    renderAs('admin', page, at);
    const form = await screen.findByRole('form', { name: 'Add an external contact' });
    await user.type(within(form).getByLabelText('Name'), 'Minh Tran');
    await user.click(within(form).getByRole('button', { name: 'Add Contact' }));
    expect(within(form).getByRole('alert')).toHaveTextContent('Enter a phone number, an e-mail address or both.');
    expect(api.sent('POST', '/members')).toHaveLength(0);

    await user.type(within(form).getByLabelText('Phone'), '+15551230002');
    await user.selectOptions(within(form).getByLabelText('Language'), 'vi');
    await user.click(within(form).getByRole('button', { name: 'Add Contact' }));
    expect(await within(form).findByRole('status')).toHaveTextContent('Minh Tran added to the group.');
    expect(api.sent('POST', '/members').map((r) => r.body)).toEqual([{ kind: 'external', name: 'Minh Tran', phone: '+15551230002', language: 'vi' }]);
    expect(await screen.findByRole('cell', { name: '+15551230002' })).toBeInTheDocument();
    expect(cellsOf('Minh Tran').slice(0, 5)).toEqual(['External contact', 'Minh Tran', '+15551230002', '—', 'Vietnamese (Tiếng Việt)']);
  });

  it('removes a member only once the admin confirms, and records it in the changes', async () => {
    const user = userEvent.setup();
    const api = fakeContactGroupsApi({ members: { 'g-1': members() } });
    renderAs('admin', page, at);
    await user.click(await screen.findByRole('button', { name: 'Remove Ana Ruiz' }));
    const confirm = screen.getByRole('alertdialog', { name: 'Remove Ana Ruiz?' });
    await user.click(within(confirm).getByRole('button', { name: 'Keep Member' }));
    expect(api.sent('DELETE', '/members/m-2')).toHaveLength(0);

    api.state.audit = [
      audit('member_removed', '2026-11-22T10:00:00.000Z', {
        memberId: 'm-2',
        kind: 'external',
        name: 'Ana Ruiz',
        phone: '+15551230001',
        email: 'ana@example.org',
        language: 'es',
      }),
    ];
    await user.click(screen.getByRole('button', { name: 'Remove Ana Ruiz' }));
    await user.click(within(screen.getByRole('alertdialog')).getByRole('button', { name: 'Remove Member' }));
    await waitFor(() => expect(screen.queryByRole('cell', { name: 'Ana Ruiz' })).not.toBeInTheDocument());
    expect(api.sent('DELETE', '/api/alerts/admin/contact-groups/g-1/members/m-2')).toHaveLength(1);
    // the audit is read again after the change
    const changes = screen.getByRole('region', { name: 'Membership changes' });
    expect(await within(changes).findByText('Removed Ana Ruiz (+15551230001) by chief.ops@beacon.local')).toBeInTheDocument();
  });

  it('lists the membership changes newest first, in plain words', async () => {
    const api = fakeContactGroupsApi();
    // newest first, as the server answers
    api.state.audit = [
      audit('import_applied', '2026-11-23T09:00:00.000Z', { created: 40, updated: 2, unchanged: 1, rejected: 3 }),
      audit('group_updated', '2026-11-22T09:00:00.000Z', { before: { name: 'Road crew', description: '' }, after: { name: 'Road crews' } }),
      audit('member_added', '2026-11-21T09:00:00.000Z', { memberId: 'm-1', kind: 'user', userId: 'u-1', email: 'pat.driver@example.com' }),
      { ...audit('group_created', '2026-11-20T09:00:00.000Z', { name: 'Road crew', description: '' }), actorEmail: null },
    ];
    renderAs('admin', page, at);
    const changes = await screen.findByRole('region', { name: 'Membership changes' });
    const items = await within(changes).findAllByRole('listitem');
    expect(items).toHaveLength(4);
    expect(items[0]).toHaveTextContent('Imported a CSV file: 40 created, 2 updated, 1 unchanged, 3 rejected rows skipped by chief.ops@beacon.local');
    expect(items[1]).toHaveTextContent('Renamed from “Road crew” to “Road crews” by chief.ops@beacon.local');
    expect(items[2]).toHaveTextContent('Added Beacon user pat.driver@example.com by chief.ops@beacon.local');
    expect(items[3]).toHaveTextContent('Group created as “Road crew” (Beacon)');
  });

  it('shows a viewer the members, the export and the changes, and no control that changes the group', async () => {
    fakeContactGroupsApi({ members: { 'g-1': members() } });
    renderAs('viewer', page, at);
    expect(await screen.findByRole('cell', { name: 'Ana Ruiz' })).toBeInTheDocument();
    expect(screen.getByRole('note')).toHaveTextContent('can read contact groups');
    expect(screen.getByRole('button', { name: 'Export CSV' })).toBeInTheDocument();
    expect(screen.getByRole('region', { name: 'Membership changes' })).toBeInTheDocument();
    expect(screen.queryByRole('button', { name: /^Remove/ })).not.toBeInTheDocument();
    expect(screen.queryByRole('columnheader', { name: 'Actions' })).not.toBeInTheDocument();
    expect(screen.queryByRole('form', { name: /^Add/ })).not.toBeInTheDocument();
    expect(screen.queryByLabelText('CSV file')).not.toBeInTheDocument();
    expect(screen.queryByRole('button', { name: /^Import/ })).not.toBeInTheDocument();
  });

  it('downloads the export as a CSV file', async () => {
    const user = userEvent.setup();
    const api = fakeContactGroupsApi({ members: { 'g-1': members() } });
    URL.createObjectURL = jest.fn(() => 'blob:export');
    URL.revokeObjectURL = jest.fn();
    const click = jest.spyOn(HTMLAnchorElement.prototype, 'click').mockImplementation(() => undefined);
    renderAs('admin', page, at);
    await user.click(await screen.findByRole('button', { name: 'Export CSV' }));
    await waitFor(() => expect(click).toHaveBeenCalledTimes(1));
    expect(api.sent('GET', '/api/alerts/admin/contact-groups/g-1/export')).toHaveLength(1);
    expect((click.mock.contexts[0] as HTMLAnchorElement).download).toBe('contact-group-school-staff.csv');
    click.mockRestore();
  });

  it('says so when the group does not exist', async () => {
    fakeContactGroupsApi({ groups: [] });
    renderAs('admin', page, { path: at.path, route: '/admin/contact-groups/gone' });
    expect(await screen.findByRole('alert')).toHaveTextContent('This contact group was not found. It may have been deleted.');
    expect(screen.getByRole('link', { name: 'Back to Contact Groups' })).toHaveAttribute('href', '/admin/contact-groups');
  });
});

import { act, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import toast, { Toaster } from 'react-hot-toast';
import { ContactGroupsPage } from './ContactGroupsPage';
import { fakeContactGroupsApi, group, renderAs } from './test-utils';

afterEach(() => act(() => toast.remove()));

const page = (
  <>
    <ContactGroupsPage />
    <Toaster />
  </>
);

const rowOf = (name: string) => screen.getByRole('rowheader', { name }).closest('tr')!;

describe('Contact Groups (list)', () => {
  it('lists each group with its members and external contacts counted', async () => {
    fakeContactGroupsApi({
      groups: [
        group({ id: 'g-1', name: 'School staff', memberCount: 12, externalCount: 5 }),
        group({ id: 'g-2', name: 'Road crews', memberCount: 1, externalCount: 0 }),
      ],
    });
    renderAs('admin', page);
    const table = await screen.findByRole('table', { name: 'Contact groups' });
    expect(
      within(table)
        .getAllByRole('columnheader')
        .map((h) => h.textContent),
    ).toEqual(['Group', 'Description', 'Members', 'External contacts', 'Last changed', 'Actions']);
    const school = within(rowOf('School staff'))
      .getAllByRole('cell')
      .map((c) => c.textContent);
    expect(school.slice(1, 3)).toEqual(['12', '5']);
    expect(within(rowOf('School staff')).getByRole('link', { name: 'School staff' })).toHaveAttribute('href', '/admin/contact-groups/g-1');
    expect(within(rowOf('Road crews')).getAllByRole('cell')[1]).toHaveTextContent('1');
  });

  it('creates a group from its name and description, and lists it', async () => {
    const user = userEvent.setup();
    const api = fakeContactGroupsApi({ groups: [] });
    renderAs('admin', page);
    expect(await screen.findByText('No contact groups yet.')).toBeInTheDocument();
    await user.click(screen.getByRole('button', { name: '+ New Group' }));
    const dialog = screen.getByRole('dialog', { name: 'New Contact Group' });
    expect(within(dialog).getByLabelText('Name')).toHaveFocus();
    await user.click(within(dialog).getByRole('button', { name: 'Create Group' }));
    expect(within(dialog).getByRole('alert')).toHaveTextContent('Give the group a name.');
    expect(api.sent('POST', '/api/alerts/admin/contact-groups')).toHaveLength(0);

    await user.type(within(dialog).getByLabelText('Name'), '  Hospital on-call  ');
    await user.type(within(dialog).getByLabelText('Description (optional)'), 'Night shift');
    await user.click(within(dialog).getByRole('button', { name: 'Create Group' }));
    await waitFor(() => expect(screen.queryByRole('dialog')).not.toBeInTheDocument());
    expect(api.sent('POST', '/api/alerts/admin/contact-groups').map((r) => r.body)).toEqual([{ name: 'Hospital on-call', description: 'Night shift' }]);
    expect(await screen.findByRole('rowheader', { name: 'Hospital on-call' })).toBeInTheDocument();
    expect(await screen.findByText('Group “Hospital on-call” created')).toBeInTheDocument();
  });

  it("keeps the dialog open with the server's reason when the name is refused", async () => {
    const user = userEvent.setup();
    fakeContactGroupsApi({ groups: [] });
    const fetchOk = global.fetch;
    global.fetch = jest.fn(async (input: RequestInfo | URL) =>
      (input as Request).method === 'POST'
        ? new Response(JSON.stringify({ statusCode: 409, code: 'conflict', message: 'A contact group named “Road crews” already exists.' }), { status: 409 })
        : fetchOk(input),
    ) as unknown as typeof fetch;
    renderAs('admin', page);
    await user.click(await screen.findByRole('button', { name: '+ New Group' }));
    const dialog = screen.getByRole('dialog', { name: 'New Contact Group' });
    await user.type(within(dialog).getByLabelText('Name'), 'Road crews');
    await user.click(within(dialog).getByRole('button', { name: 'Create Group' }));
    expect(await within(dialog).findByRole('alert')).toHaveTextContent('A contact group named “Road crews” already exists.');
  });

  it('renames a group', async () => {
    const user = userEvent.setup();
    const api = fakeContactGroupsApi({ groups: [group({ id: 'g-7', name: 'Road crew', description: '' })] });
    renderAs('admin', page);
    await user.click(await screen.findByRole('button', { name: 'Rename Road crew' }));
    const name = within(screen.getByRole('dialog', { name: 'Rename Road crew' })).getByLabelText('Name');
    expect(name).toHaveValue('Road crew');
    await user.clear(name);
    await user.type(name, 'Road crews (north)');
    await user.click(screen.getByRole('button', { name: 'Save' }));
    expect(await screen.findByRole('rowheader', { name: 'Road crews (north)' })).toBeInTheDocument();
    expect(api.sent('PATCH', '/api/alerts/admin/contact-groups/g-7').map((r) => r.body)).toEqual([{ name: 'Road crews (north)', description: '' }]);
  });

  it('deletes a group only once the admin confirms', async () => {
    const user = userEvent.setup();
    const api = fakeContactGroupsApi({ groups: [group({ id: 'g-3', name: 'Road crews', memberCount: 4 })] });
    renderAs('admin', page);
    await user.click(await screen.findByRole('button', { name: 'Delete Road crews' }));
    let confirm = screen.getByRole('alertdialog', { name: 'Delete Road crews?' });
    expect(confirm).toHaveTextContent('its list of 4 members');
    expect(within(confirm).getByRole('button', { name: 'Keep Group' })).toHaveFocus();
    await user.click(within(confirm).getByRole('button', { name: 'Keep Group' }));
    expect(api.sent('DELETE', '/g-3')).toHaveLength(0);

    await user.click(screen.getByRole('button', { name: 'Delete Road crews' }));
    confirm = screen.getByRole('alertdialog', { name: 'Delete Road crews?' });
    await user.click(within(confirm).getByRole('button', { name: 'Delete Group' }));
    await waitFor(() => expect(screen.queryByRole('rowheader', { name: 'Road crews' })).not.toBeInTheDocument());
    expect(api.sent('DELETE', '/api/alerts/admin/contact-groups/g-3')).toHaveLength(1);
    expect(await screen.findByText('No contact groups yet.')).toBeInTheDocument();
  });

  it('shows a viewer the groups and no control that changes them', async () => {
    fakeContactGroupsApi({ groups: [group({ name: 'School staff', memberCount: 3 })] });
    renderAs('viewer', page);
    expect(await screen.findByRole('rowheader', { name: 'School staff' })).toBeInTheDocument();
    expect(screen.getByRole('note')).toHaveTextContent('Your role (Viewer) can read contact groups. Changing them needs an administrator.');
    expect(screen.queryByRole('button', { name: '+ New Group' })).not.toBeInTheDocument();
    expect(screen.queryByRole('button', { name: /Rename|Delete/ })).not.toBeInTheDocument();
    expect(screen.queryByRole('columnheader', { name: 'Actions' })).not.toBeInTheDocument();
  });

  it('says so, with a retry, when the list cannot be loaded', async () => {
    global.fetch = jest.fn(async () => new Response(JSON.stringify({ message: 'down' }), { status: 503 })) as unknown as typeof fetch;
    renderAs('admin', page);
    expect(await screen.findByRole('alert')).toHaveTextContent('Failed to load contact groups');
  });
});

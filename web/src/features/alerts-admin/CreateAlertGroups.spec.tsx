import { useState } from 'react';
import { act, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import toast, { Toaster } from 'react-hot-toast';
import type { AlertAudience, AlertTargetGroup, ContactGroup } from '@beacon/contracts';
import { jsonResponse as json } from '@/test/json-response';
import { CreateAlertPage } from './CreateAlertPage';
import { targetGroupOf } from './target-groups';
import { TargetGroupsField } from './TargetGroupsField';
import { adminAlert, renderScreen, requestOf } from './test-utils';

// The wizard's contact groups (issue #42): an alert targets its area, groups, or both.

// Leaflet (ESM, canvas) does not run in jsdom: the map is replaced by a button that "clicks" a point.
jest.mock('@/features/alerts/AreaMap', () => ({
  __esModule: true,
  default: ({ onPick, label }: { onPick?: (lat: number, lng: number) => void; label: string }) => (
    <button type="button" onClick={() => onPick?.(33.45, -112.07)}>
      {label}
    </button>
  ),
}));

const group = (id: number, name: string, memberCount: number, externalCount = 0): ContactGroup => ({
  id: `00000000-0000-4000-8000-00000000c0${String(id).padStart(2, '0')}`,
  name,
  description: '',
  memberCount,
  externalCount,
  createdAt: '2026-11-20T10:00:00.000Z',
  updatedAt: '2026-11-20T10:00:00.000Z',
});
const ROAD_CREWS = group(1, 'Road crews', 12, 3);
const NIGHT_SHIFT = group(2, 'Night shift', 1);
const SCHOOL_STAFF = group(3, 'Lincoln Elementary staff', 40);

const audience = (o: Partial<AlertAudience> = {}): AlertAudience => ({
  token: 'token-1',
  concerned: 60,
  recipients: 52,
  held: 0,
  channels: { push: { recipients: 52, held: 0, configured: true } },
  unreachable: { noChannel: 8, noDevice: 0 },
  ...o,
});

let groups: () => Response;
let posts: Record<string, unknown>[];
let previews: Record<string, unknown>[];
let answer: () => Response;
let audienceAnswer: () => Response;
const SENT_ID = '00000000-0000-4000-a000-0000000000a1';

beforeEach(() => {
  groups = () => json([NIGHT_SHIFT, ROAD_CREWS, SCHOOL_STAFF]);
  posts = [];
  previews = [];
  answer = () => json(adminAlert({ id: SENT_ID, title: 'Ice on the county roads' }), 201);
  audienceAnswer = () => json(audience());
  global.fetch = jest.fn(async (input: RequestInfo | URL) => {
    const { req, path } = requestOf(input);
    if (path === '/api/alerts/admin/contact-groups' && req.method === 'GET') return groups();
    if (path === '/api/alerts/audience' && req.method === 'POST') {
      previews.push(await req.json());
      return audienceAnswer();
    }
    if (path === '/api/alerts' && req.method === 'POST') {
      posts.push(await req.json());
      return answer();
    }
    return json({ statusCode: 404, code: 'not_found', message: 'Not found' }, 404);
  }) as unknown as typeof fetch;
});

afterEach(() => act(() => toast.remove()));

const stepHeading = () => screen.getByRole('heading', { level: 2 });
const next = () => screen.getByRole('button', { name: 'Next' });
const path = () => screen.getByRole('status', { name: 'current path' });
const search = () => screen.getByRole('searchbox', { name: 'Search contact groups' });
const option = (name: RegExp) => within(screen.getByRole('list', { name: 'Contact groups to choose from' })).getByRole('checkbox', { name });
/** Each chip's words (its remove button is named apart). */
const chips = () =>
  within(screen.getByRole('list', { name: 'Chosen contact groups' }))
    .getAllByRole('listitem')
    .map((li) => li.firstElementChild?.textContent);

/** The wizard on step 3 (Location & Timing), with valid details and the defaults of step 2. */
async function toLocationStep() {
  const user = userEvent.setup();
  renderScreen(
    <>
      <CreateAlertPage />
      <Toaster />
    </>,
    { path: '/admin/create-alert' },
  );
  await user.type(screen.getByLabelText('Alert Title'), 'Ice on the county roads');
  await user.type(screen.getByLabelText('Message'), 'Black ice on every county road this morning: grit before 6 am.');
  await user.click(next());
  await user.click(next());
  expect(stepHeading()).toHaveTextContent('Step 3 of 4');
  return user;
}

describe('Create Alert: contact groups beside the area (issue #42)', () => {
  it('finds groups by name, shows each chosen one as a chip with its members, and sends both ids with the area', async () => {
    const user = await toLocationStep();
    // Every group by name, with its member counts (those without an account said).
    expect(await screen.findByRole('checkbox', { name: 'Road crews (12 members, of them 3 without an account)' })).toBeInTheDocument();
    expect(option(/^Night shift/)).toHaveAccessibleName('Night shift (1 member)');

    // By keyboard: the search narrows the list, Tab reaches the group, Space chooses it.
    await user.type(search(), 'ROAD');
    expect(within(screen.getByRole('list', { name: 'Contact groups to choose from' })).getAllByRole('checkbox')).toHaveLength(1);
    await user.tab();
    expect(option(/^Road crews/)).toHaveFocus();
    await user.keyboard(' ');
    expect(chips()).toEqual(['Road crews 12 members, of them 3 without an account']);
    expect(screen.getByText('Road crews added: 1 group chosen.')).toBeInTheDocument();

    await user.clear(search());
    await user.type(search(), 'night');
    // Enter in the search field is not the wizard's Next.
    await user.keyboard('{Enter}');
    expect(stepHeading()).toHaveTextContent('Step 3 of 4');
    await user.click(option(/^Night shift/));
    expect(chips()).toEqual(['Road crews 12 members, of them 3 without an account', 'Night shift 1 member']);

    await user.click(screen.getByRole('button', { name: 'Alert area map: click to place the centre' }));
    await user.click(next());
    expect(stepHeading()).toHaveTextContent('Step 4 of 4');
    // The review lists the groups chosen, with their members.
    expect(within(screen.getByLabelText('Alert summary')).getByRole('list', { name: 'Chosen contact groups' })).toHaveTextContent(
      'Road crews (12 members, of them 3 without an account)Night shift (1 member)',
    );

    await user.click(await screen.findByRole('button', { name: 'Send to 52 people' }));
    await waitFor(() => expect(path()).toHaveTextContent(`/admin/alerts/${SENT_ID}`));
    expect(posts).toHaveLength(1);
    expect(posts[0]).toMatchObject({ groupIds: [ROAD_CREWS.id, NIGHT_SHIFT.id], lat: 33.45, lng: -112.07, radiusKm: 50 });
    expect(posts[0]).not.toHaveProperty('everyone');
    // What was counted is what was sent.
    expect(previews[0]).toEqual(posts[0]);
  });

  it('with a group and no area is valid, and sends the groups only: no area, not everyone', async () => {
    const user = await toLocationStep();
    // Without area or group, the rule names the three ways.
    await user.click(next());
    expect(screen.getByRole('alert')).toHaveTextContent('Choose where this alert applies, or choose to send it to everyone, or pick a contact group');

    await user.click(await screen.findByRole('checkbox', { name: /^Road crews/ }));
    expect(screen.queryByRole('alert')).not.toBeInTheDocument();
    // A polygon without corners is no area either: with a group, nothing drawn is fine.
    await user.click(screen.getByRole('radio', { name: 'Polygon' }));
    await user.click(next());
    expect(stepHeading()).toHaveTextContent('Step 4 of 4');
    expect(screen.getByLabelText('Alert summary')).toHaveTextContent('AreaNo area: only the members of its contact groups');
    expect(screen.queryByRole('region', { name: 'The alert area on the map' })).not.toBeInTheDocument();

    await user.click(await screen.findByRole('button', { name: 'Send to 52 people' }));
    await waitFor(() => expect(posts).toHaveLength(1));
    expect(posts[0].groupIds).toEqual([ROAD_CREWS.id]);
    for (const key of ['lat', 'lng', 'radiusKm', 'area', 'everyone']) expect(posts[0]).not.toHaveProperty(key);
  });

  it('never offers everyone with groups: the choice leaves while a group is chosen, and the groups while everyone is', async () => {
    const user = await toLocationStep();
    const everyone = () => screen.queryByRole('radio', { name: 'Send to everyone, everywhere' });
    await user.click(await screen.findByRole('checkbox', { name: /^Night shift/ }));
    expect(everyone()).not.toBeInTheDocument();
    expect(screen.getByText(/Everyone, everywhere is not offered while contact groups are chosen/)).toBeInTheDocument();

    // Removing the chip gives the choice back, and the focus to the search rather than losing it.
    await user.click(screen.getByRole('button', { name: 'Remove Night shift' }));
    expect(search()).toHaveFocus();
    expect(screen.getByText('Night shift removed: no group chosen.')).toBeInTheDocument();
    expect(screen.queryByRole('list', { name: 'Chosen contact groups' })).not.toBeInTheDocument();

    await user.click(everyone()!);
    expect(screen.queryByRole('searchbox', { name: 'Search contact groups' })).not.toBeInTheDocument();
    expect(screen.getByText(/cannot also target contact groups: choose Circle or Polygon above to pick groups/)).toBeInTheDocument();
    await user.click(screen.getByRole('checkbox', { name: 'I understand: send this alert to everyone, everywhere' }));
    await user.click(next());
    await user.click(await screen.findByRole('button', { name: 'Send to 52 people' }));
    await user.click(screen.getByRole('button', { name: 'Yes, send to everyone, everywhere: 52 people' }));
    await waitFor(() => expect(posts).toHaveLength(1));
    expect(posts[0]).toMatchObject({ everyone: true });
    expect(posts[0]).not.toHaveProperty('groupIds');
  });

  it('shows whom each target concerns before sending: the area, each group with those without an account, counted once', async () => {
    audienceAnswer = () => json(audience({ byTarget: { area: 1200, groups: [{ id: ROAD_CREWS.id, name: 'Road crews', concerned: 12, external: 3 }] } }));
    const user = await toLocationStep();
    await user.click(await screen.findByRole('checkbox', { name: /^Road crews/ }));
    await user.click(screen.getByRole('button', { name: 'Alert area map: click to place the centre' }));
    await user.click(next());
    const lines = await screen.findByRole('list', { name: 'People per target' });
    expect(
      within(lines)
        .getAllByRole('listitem')
        .map((li) => li.textContent),
    ).toEqual(['Area: 1,200 people', 'Road crews: 12 people, of them 3 without an account']);
    expect(screen.getByText(/a person in two of them is counted once in the total/)).toBeInTheDocument();
  });

  it('puts the server’s refusal of a group at the groups, naming the group, and lets the admin remove it', async () => {
    answer = () => json({ statusCode: 400, code: 'alert_group_not_found', message: `Contact group ${NIGHT_SHIFT.id} does not exist` }, 400);
    const user = await toLocationStep();
    await user.click(await screen.findByRole('checkbox', { name: /^Night shift/ }));
    await user.click(next());
    await user.click(await screen.findByRole('button', { name: 'Send to 52 people' }));

    const error = await screen.findByText('“Night shift” no longer exists (it was deleted after you chose it): remove it, then send again.');
    expect(stepHeading()).toHaveTextContent('Step 3 of 4');
    expect(screen.getByRole('group', { name: 'Contact groups (optional)' })).toHaveAccessibleDescription(expect.stringContaining(error.textContent!));
    await user.click(screen.getByRole('button', { name: 'Remove Night shift' }));
    expect(screen.queryByText(/no longer exists/)).not.toBeInTheDocument();
  });

  it.each([
    ['alert_too_many_groups', 'An alert can target at most 20 contact groups: remove 1 group.'],
    ['groups_and_everyone', 'An alert to everyone, everywhere cannot also target contact groups: remove the groups, or choose an area instead of everyone.'],
  ])('says %s at the groups, in the console’s words', async (code, words) => {
    answer = () => json({ statusCode: 400, code, message: 'Refused' }, 400);
    const user = await toLocationStep();
    await user.click(await screen.findByRole('checkbox', { name: /^Night shift/ }));
    await user.click(next());
    await user.click(await screen.findByRole('button', { name: 'Send to 52 people' }));
    expect(await screen.findByRole('alert')).toHaveTextContent(words);
    expect(stepHeading()).toHaveTextContent('Step 3 of 4');
  });

  it('stops at 20 groups: once 20 are chosen the others cannot be ticked, and the list says why', async () => {
    const crews = Array.from({ length: 21 }, (_, i) => group(i + 10, `Crew ${String(i + 1).padStart(2, '0')}`, 2));
    groups = () => json(crews);
    function Harness() {
      // 19 chosen already (an alert's groups as a draft holds them): the 20th is the last one the field takes.
      const [value, setValue] = useState<AlertTargetGroup[]>(crews.slice(0, 19).map(targetGroupOf));
      return <TargetGroupsField id="t" value={value} onChange={setValue} />;
    }
    const user = userEvent.setup();
    renderScreen(<Harness />);
    expect(await screen.findByText('13 more groups: type part of a name to find it.')).toBeInTheDocument();
    await user.type(search(), 'Crew 2');
    expect(option(/^Crew 21/)).toBeEnabled();
    await user.click(option(/^Crew 20/));
    expect(chips()).toHaveLength(20);
    expect(option(/^Crew 21/)).toBeDisabled();
    // a chosen one can still be unticked
    expect(option(/^Crew 20/)).toBeEnabled();
    expect(screen.getByText('An alert can target at most 20 contact groups: remove one to choose another.')).toBeInTheDocument();
    await user.click(screen.getByRole('button', { name: 'Remove Crew 01' }));
    expect(option(/^Crew 21/)).toBeEnabled();
  });

  it('says when the groups cannot be read, and reads them again on request', async () => {
    groups = () => json({ statusCode: 503, code: 'error', message: 'Unavailable' }, 503);
    const user = await toLocationStep();
    expect(await screen.findByText('The contact groups could not be loaded.')).toBeInTheDocument();
    groups = () => json([ROAD_CREWS]);
    await user.click(screen.getByRole('button', { name: 'Try again' }));
    expect(await screen.findByRole('checkbox', { name: /^Road crews/ })).toBeInTheDocument();
  });

  it('says there are none yet, with the way to the contact groups', async () => {
    groups = () => json([]);
    await toLocationStep();
    expect(await screen.findByRole('link', { name: 'Contact groups' })).toHaveAttribute('href', '/admin/contact-groups');
  });
});

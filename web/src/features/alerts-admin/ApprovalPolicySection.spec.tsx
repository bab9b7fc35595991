import { act, screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import toast, { Toaster } from 'react-hot-toast';
import { DEFAULT_APPROVAL_POLICY, type ApprovalPolicy } from '@beacon/contracts';
import { jsonResponse as json } from '@/test/json-response';
import { ApprovalPolicySection, describePolicy } from './ApprovalPolicySection';
import { renderScreen, requestOf } from './test-utils';

let policy: ApprovalPolicy;
let puts: unknown[];
/** The next PUT's refusal, if any. */
let refusal: { status: number; body: unknown } | null;

beforeEach(() => {
  policy = { ...DEFAULT_APPROVAL_POLICY };
  puts = [];
  refusal = null;
  global.fetch = jest.fn(async (input: RequestInfo | URL) => {
    const { req, path } = requestOf(input);
    if (path !== '/api/alerts/admin/settings/approval') return json({ statusCode: 404, code: 'not_found', message: 'Not found' }, 404);
    if (req.method === 'PUT') {
      const body = await req.json();
      puts.push(body);
      if (refusal) return json(refusal.body, refusal.status);
      policy = { ...policy, ...body, updatedAt: '2026-11-25T10:00:00.000Z', updatedBy: '00000000-0000-4000-8000-0000000000ad' };
      return json(policy);
    }
    return json(policy);
  }) as unknown as typeof fetch;
});

afterEach(() => act(() => toast.remove()));

function renderSection() {
  return renderScreen(
    <>
      <ApprovalPolicySection />
      <Toaster />
    </>,
  );
}

describe('Approval policy (Admin Settings)', () => {
  it('shows the policy as saved: off by default, the severity choice only for the severity mode', async () => {
    renderSection();
    expect(await screen.findByRole('radio', { name: 'Off: alerts go out when they are sent' })).toBeChecked();
    expect(screen.getByLabelText('Lowest severity that waits')).toBeDisabled();
    expect(screen.getByRole('checkbox', { name: 'CAP automatic sends wait too' })).not.toBeChecked();
    expect(screen.getByText('Nothing waits for approval.')).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Save approval policy' })).toBeDisabled();
  });

  it('saves "high or above" with CAP automatic sends, and says what it saved', async () => {
    const user = userEvent.setup();
    renderSection();
    await user.click(await screen.findByRole('radio', { name: 'Alerts at or above a severity' }));
    await user.selectOptions(screen.getByLabelText('Lowest severity that waits'), 'High');
    await user.click(screen.getByRole('checkbox', { name: 'CAP automatic sends wait too' }));
    expect(screen.getByText('Alerts of High severity or higher wait for approval; CAP automatic sends wait too.')).toBeInTheDocument();
    await user.click(screen.getByRole('button', { name: 'Save approval policy' }));

    expect(await within(screen.getByRole('form', { name: 'Approval policy' })).findByRole('status')).toHaveTextContent(
      'Saved. Alerts of High severity or higher wait for approval; CAP automatic sends wait too.',
    );
    expect(await screen.findByText('Approval policy saved')).toBeInTheDocument();
    expect(puts).toEqual([{ mode: 'severity', minSeverity: 'high', capAutomatic: true }]);
    expect(screen.getByRole('button', { name: 'Save approval policy' })).toBeDisabled();
    expect(screen.getByText(/^Last saved /)).toBeInTheDocument();
  });

  it("shows the server's refusal and keeps what was chosen", async () => {
    const user = userEvent.setup();
    refusal = { status: 403, body: { statusCode: 403, code: 'forbidden', message: 'Only an admin can change the approval policy' } };
    renderSection();
    await user.click(await screen.findByRole('radio', { name: 'Every alert' }));
    await user.click(screen.getByRole('button', { name: 'Save approval policy' }));
    expect(await within(screen.getByRole('form', { name: 'Approval policy' })).findByRole('alert')).toHaveTextContent(
      'Only an admin can change the approval policy',
    );
    expect(screen.getByRole('radio', { name: 'Every alert' })).toBeChecked();
    expect(puts).toEqual([{ mode: 'all', minSeverity: 'high', capAutomatic: false }]);
  });

  it('says when the policy cannot be read', async () => {
    global.fetch = jest.fn(async () => json({ statusCode: 500, code: 'internal_error', message: 'boom' }, 500)) as unknown as typeof fetch;
    renderSection();
    expect(await screen.findByText('The approval policy could not be loaded.')).toBeInTheDocument();
  });

  it('describes each policy in one sentence', () => {
    expect(describePolicy({ mode: 'all', minSeverity: 'low', capAutomatic: true })).toBe('Every alert waits for approval, CAP automatic sends included.');
    expect(describePolicy({ mode: 'off', minSeverity: 'high', capAutomatic: true })).toBe('Nothing waits for approval; CAP automatic sends wait too.');
    expect(describePolicy({ mode: 'severity', minSeverity: 'critical', capAutomatic: false })).toBe('Alerts of Critical severity or higher wait for approval.');
  });
});

import { screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { QuickSendPage } from './QuickSendPage';
import { renderScreen } from './test-utils';

// No gateway in jsdom: the live connection is an idle emitter (these tests never send).
jest.mock('@/app/socket', () => {
  const { EventEmitter } = jest.requireActual('node:events');
  const socket = Object.assign(new EventEmitter(), { connected: false, emit: () => true });
  return { getSocket: () => socket, useSocketEvent: () => undefined };
});

function setup() {
  const user = userEvent.setup();
  renderScreen(<QuickSendPage />, { path: '/admin/quick-send' });
  return { user };
}

describe('Quick Send (the single create-alert form)', () => {
  it('starts with the spec defaults, the notice and both counters', () => {
    setup();
    expect(screen.getByLabelText('Alert Type')).toHaveValue('Emergency');
    expect([...(screen.getByLabelText('Alert Type') as HTMLSelectElement).options].map((o) => o.value).filter(Boolean))
      .toEqual(['Emergency', 'Weather', 'Amber Alert', 'Terror Alert', 'Traffic', 'Public Safety']);
    expect(screen.getByRole('radio', { name: 'Medium' })).toBeChecked();
    expect(screen.getByRole('checkbox', { name: 'Web Push' })).toBeChecked();
    expect(screen.getByRole('checkbox', { name: 'SMS' })).not.toBeChecked();
    expect(screen.getByText('0/100')).toBeInTheDocument();
    expect(screen.getByText('0/500')).toBeInTheDocument();
    expect(screen.getByRole('note')).toHaveTextContent('this alert goes out immediately to all configured recipients');
    expect(screen.queryByRole('heading', { name: 'Delivery Status' })).not.toBeInTheDocument();
  });

  it('shows every validation message of the spec and sends nothing', async () => {
    const { user } = setup();
    await user.selectOptions(screen.getByLabelText('Alert Type'), '');
    await user.click(screen.getByRole('checkbox', { name: 'Web Push' }));
    await user.click(screen.getByRole('button', { name: 'Send Alert' }));
    expect(screen.getByText('Alert type is required')).toBeInTheDocument();
    expect(screen.getByText('Title must be at least 5 characters')).toBeInTheDocument();
    expect(screen.getByText('Message must be at least 10 characters')).toBeInTheDocument();
    expect(screen.getByText('Select at least one channel')).toBeInTheDocument();

    await user.click(screen.getByLabelText('Alert Title'));
    await user.paste('x'.repeat(101));
    await user.click(screen.getByLabelText('Message Body'));
    await user.paste('y'.repeat(501));
    expect(screen.getByText('101/100')).toBeInTheDocument();
    expect(screen.getByText('501/500')).toBeInTheDocument();
    await user.click(screen.getByRole('button', { name: 'Send Alert' }));
    expect(screen.getByText('Title too long')).toBeInTheDocument();
    expect(screen.getByText('Message too long')).toBeInTheDocument();
    expect(screen.queryByRole('heading', { name: 'Delivery Status' })).not.toBeInTheDocument();
  });

  it('Reset Form restores the defaults', async () => {
    const { user } = setup();
    await user.selectOptions(screen.getByLabelText('Alert Type'), 'Amber Alert');
    await user.type(screen.getByLabelText('Alert Title'), 'Missing child');
    await user.click(screen.getByRole('radio', { name: 'High' }));
    await user.click(screen.getByRole('checkbox', { name: 'SMS' }));
    await user.click(screen.getByRole('button', { name: 'Reset Form' }));
    expect(screen.getByLabelText('Alert Type')).toHaveValue('Emergency');
    expect(screen.getByLabelText('Alert Title')).toHaveValue('');
    expect(screen.getByRole('radio', { name: 'Medium' })).toBeChecked();
    expect(screen.getByRole('checkbox', { name: 'SMS' })).not.toBeChecked();
  });
});

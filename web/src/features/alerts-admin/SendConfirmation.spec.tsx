import { render, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import type { AlertAudience } from '@beacon/contracts';
import { audienceOf } from './guard-test-utils';
import { SendConfirmation, audienceConflict, type SendConfirmationProps } from './SendConfirmation';

const audience = (o: Partial<AlertAudience> = {}): AlertAudience => audienceOf(o.recipients ?? 1204, { token: 'token-1', ...o });

function setup(props: Partial<SendConfirmationProps> = {}) {
  const handlers = { onConfirm: jest.fn(), onRetry: jest.fn(), onCancel: jest.fn() };
  const user = userEvent.setup();
  const all = { audience: audience(), sending: false, ...handlers, ...props };
  const utils = render(<SendConfirmation {...all} />);
  return { user, ...handlers, rerender: (more: Partial<SendConfirmationProps>) => utils.rerender(<SendConfirmation {...all} {...more} />) };
}

describe('SendConfirmation', () => {
  it('is a region named by its heading, which takes the focus, so a further Enter sends nothing', async () => {
    const { user, onConfirm } = setup();
    const heading = screen.getByRole('heading', { name: 'Who this alert will reach' });
    expect(screen.getByRole('region', { name: 'Who this alert will reach' })).toContainElement(heading);
    expect(heading).toHaveFocus();
    await user.keyboard('{Enter}{Enter}');
    expect(onConfirm).not.toHaveBeenCalled();
  });

  it('keeps the confirmation disabled while it counts', () => {
    setup({ audience: undefined });
    expect(screen.getByText('Counting who this alert will reach...')).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Counting recipients...' })).toBeDisabled();
    expect(screen.queryByRole('button', { name: /^Send/ })).not.toBeInTheDocument();
  });

  it('confirms with the count on the button, by click or from the keyboard, handing over the token of the counts shown', async () => {
    const { user, onConfirm, onCancel } = setup();
    const confirm = screen.getByRole('button', { name: 'Send to 1,204 people' });
    await user.tab();
    expect(screen.getByRole('button', { name: 'Cancel' })).toHaveFocus();
    await user.tab();
    expect(confirm).toHaveFocus();
    await user.keyboard('{Enter}');
    expect(onConfirm).toHaveBeenCalledWith('token-1');
    await user.click(confirm);
    expect(onConfirm).toHaveBeenCalledTimes(2);
    expect(onCancel).not.toHaveBeenCalled();
    await user.click(screen.getByRole('button', { name: 'Cancel' }));
    expect(onCancel).toHaveBeenCalledTimes(1);
  });

  it('names the action and the number: "Send to 1 person", "Send to nobody", "Schedule for 3 people"', () => {
    const { rerender } = setup({ audience: audience({ recipients: 1 }) });
    expect(screen.getByRole('button', { name: 'Send to 1 person' })).toBeEnabled();
    rerender({ audience: audience({ recipients: 0, held: 0 }) });
    expect(screen.getByRole('button', { name: 'Send to nobody' })).toBeEnabled();
    expect(screen.getByRole('alert')).toHaveTextContent('Nobody will receive this alert.');
    rerender({ audience: audience({ recipients: 3, held: 0 }), actionLabel: 'Schedule for' });
    expect(screen.getByRole('button', { name: 'Schedule for 3 people' })).toBeEnabled();
  });

  it('never sends without counts: a failed preview offers only to count again', async () => {
    const { user, onConfirm, onRetry } = setup({ audience: undefined, previewError: { statusCode: 500, code: 'error', message: 'Database unavailable' } });
    expect(screen.getByRole('alert')).toHaveTextContent('Could not count who this alert will reach. Database unavailable');
    expect(screen.queryByRole('button', { name: /^Send/ })).not.toBeInTheDocument();
    await user.click(screen.getByRole('button', { name: 'Count again' }));
    expect(onRetry).toHaveBeenCalledTimes(1);
    expect(onConfirm).not.toHaveBeenCalled();
  });

  it('disables every button while sending', async () => {
    const { user, onConfirm } = setup({ sending: true });
    const sending = screen.getByRole('button', { name: /Sending/ });
    expect(sending).toBeDisabled();
    expect(screen.getByRole('button', { name: 'Cancel' })).toBeDisabled();
    await user.click(sending);
    expect(onConfirm).not.toHaveBeenCalled();
  });

  it('asks a second time, naming everyone, everywhere, before sending an alert without an area', async () => {
    const { user, onConfirm, onCancel } = setup({ everyone: true });
    expect(screen.getByText(/Everyone, everywhere:/).closest('p')).toHaveTextContent('Everyone, everywhere: this alert has no area.');
    await user.dblClick(screen.getByRole('button', { name: 'Send to 1,204 people' }));
    expect(onConfirm).not.toHaveBeenCalled();
    expect(screen.getByRole('alert')).toHaveTextContent('Confirm once more that all 1,204 people should receive it.');

    // Back leaves the second step, not the confirmation.
    await user.click(screen.getByRole('button', { name: 'Back' }));
    expect(onCancel).not.toHaveBeenCalled();
    await user.click(screen.getByRole('button', { name: 'Send to 1,204 people' }));
    await user.click(screen.getByRole('button', { name: 'Yes, send to everyone, everywhere: 1,204 people' }));
    expect(onConfirm).toHaveBeenCalledWith('token-1');
  });

  it('after a 409, shows the new number with the server’s words and confirms the new token only when pressed again', async () => {
    const { user, onConfirm, rerender } = setup({ everyone: true });
    await user.click(screen.getByRole('button', { name: 'Send to 1,204 people' }));
    await user.click(screen.getByRole('button', { name: 'Yes, send to everyone, everywhere: 1,204 people' }));
    expect(onConfirm).toHaveBeenLastCalledWith('token-1');

    rerender({
      everyone: true,
      audience: audience({ token: 'token-2', recipients: 1250 }),
      refreshed: { previous: 1204, message: 'The audience changed since the preview: it is now 1,250 people.' },
    });
    const notice = screen.getAllByRole('alert')[0];
    expect(notice).toHaveTextContent(
      'The audience changed: it is now 1,250 people (you confirmed 1,204). The audience changed since the preview: it is now 1,250 people.',
    );
    expect(notice).toHaveTextContent('Nothing was sent. Check the new numbers and confirm again.');
    // New counts start the everyone confirmation over.
    await user.click(screen.getByRole('button', { name: 'Send to 1,250 people' }));
    expect(onConfirm).toHaveBeenCalledTimes(1);
    await user.click(screen.getByRole('button', { name: 'Yes, send to everyone, everywhere: 1,250 people' }));
    expect(onConfirm).toHaveBeenLastCalledWith('token-2');
  });

  it('as a modal: a dialog named by its heading, Escape cancels', async () => {
    const { user, onCancel } = setup({ modal: true, title: 'Send the update?', actionLabel: 'Send the update to', lead: 'The update will reach' });
    expect(screen.getByRole('dialog', { name: 'Send the update?' })).toBeInTheDocument();
    expect(screen.getByText(/The update will reach/)).toHaveTextContent('The update will reach 1,204 people');
    expect(screen.getByRole('button', { name: 'Send the update to 1,204 people' })).toBeEnabled();
    await user.keyboard('{Escape}');
    expect(onCancel).toHaveBeenCalledTimes(1);
  });
});

it('as a modal, gives the focus back to what opened it when it closes', () => {
  const noop = () => {};
  const props = { audience: audience(), sending: false, onConfirm: noop, onRetry: noop, onCancel: noop, modal: true };
  const { rerender } = render(
    <>
      <button type="button">Send Now</button>
    </>,
  );
  screen.getByRole('button', { name: 'Send Now' }).focus();
  rerender(
    <>
      <button type="button">Send Now</button>
      <SendConfirmation {...props} />
    </>,
  );
  expect(screen.getByRole('heading', { name: 'Who this alert will reach' })).toHaveFocus();
  rerender(
    <>
      <button type="button">Send Now</button>
    </>,
  );
  expect(screen.getByRole('button', { name: 'Send Now' })).toHaveFocus();
});

describe('audienceConflict', () => {
  it('reads the fresh audience of the guard’s 409, and nothing else', () => {
    const fresh = audience({ token: 'token-2' });
    expect(audienceConflict({ statusCode: 409, code: 'audience_changed', message: 'moved', details: { audience: fresh } })).toEqual({
      audience: fresh,
      message: 'moved',
    });
    expect(audienceConflict({ statusCode: 409, code: 'invalid_alert_status', message: 'no' })).toBeNull();
    expect(audienceConflict({ statusCode: 400, code: 'invalid_audience_token', message: 'no', details: { audience: fresh } })).toBeNull();
    expect(audienceConflict(undefined)).toBeNull();
  });
});

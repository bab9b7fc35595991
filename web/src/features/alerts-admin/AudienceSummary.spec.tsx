import { render, screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import type { AlertAudience } from '@beacon/contracts';
import { AudienceConfirm, AudienceSummary } from './AudienceSummary';

const audience = (o: Partial<AlertAudience> = {}): AlertAudience => ({
  concerned: 1303,
  recipients: 1204,
  held: 32,
  channels: { push: { recipients: 1204, held: 32, configured: true }, sms: { recipients: 310, held: 0, configured: true } },
  unreachable: { noChannel: 87, noDevice: 12 },
  ...o,
});

const channelLines = () =>
  within(screen.getByRole('list', { name: 'Recipients per channel' }))
    .getAllByRole('listitem')
    .map((li) => li.textContent);

describe('AudienceSummary', () => {
  it('says how many people the alert reaches, per channel with those held, and whom it does not reach', () => {
    render(<AudienceSummary audience={audience()} />);
    expect(screen.getByText(/This alert will reach/)).toHaveTextContent(
      'This alert will reach 1,204 people, 32 of them later, in their quiet hours or digest.',
    );
    expect(channelLines()).toEqual(['Web Push: 1,204 (32 later, in their quiet hours or digest)', 'SMS: 310']);
    expect(screen.getByText(/^Not reached:/)).toHaveTextContent(
      'Not reached: 87 people it concerns have none of these channels on; 12 have push on but no browser subscribed.',
    );
    expect(screen.queryByRole('alert')).not.toBeInTheDocument();
  });

  it('lists the channels in their usual order, says person for one, and leaves out what is zero', () => {
    render(
      <AudienceSummary
        audience={audience({
          concerned: 2,
          recipients: 1,
          held: 0,
          channels: { email: { recipients: 1, held: 0, configured: true }, push: { recipients: 0, held: 0, configured: true } },
          unreachable: { noChannel: 0, noDevice: 1 },
        })}
      />,
    );
    expect(screen.getByText(/This alert will reach/)).toHaveTextContent(/^This alert will reach 1 person\.$/);
    expect(channelLines()).toEqual(['Web Push: 0', 'Email: 1']);
    expect(screen.getByText(/^Not reached:/)).toHaveTextContent('Not reached: 1 person it concerns has push on but no browser subscribed.');
  });

  it('has no "Not reached" line when everyone it concerns is reached', () => {
    render(<AudienceSummary audience={audience({ unreachable: { noChannel: 0, noDevice: 0 } })} />);
    expect(screen.queryByText(/Not reached/)).not.toBeInTheDocument();
  });

  it('warns loudly, with the reason, about a ticked channel that is not configured', () => {
    const reason = 'The SMS webhook is turned off in Admin Settings: SMS will not be sent.';
    render(
      <AudienceSummary
        audience={audience({
          channels: { push: { recipients: 1204, held: 32, configured: true }, sms: { recipients: 40, held: 0, configured: false, reason } },
        })}
      />,
    );
    expect(screen.getByRole('alert')).toHaveTextContent(`SMS is not configured. ${reason}`);
    expect(channelLines()).toEqual(['Web Push: 1,204 (32 later, in their quiet hours or digest)', 'SMS: 40 (not configured: these will fail)']);
  });

  it('still warns about an unconfigured channel without a reason', () => {
    render(<AudienceSummary audience={audience({ channels: { sms: { recipients: 3, held: 0, configured: false } } })} />);
    expect(screen.getByRole('alert')).toHaveTextContent('SMS is not configured. Nothing will be sent by SMS.');
  });

  it('says loudly that nobody will receive an alert that concerns nobody', () => {
    render(
      <AudienceSummary
        audience={audience({
          concerned: 0,
          recipients: 0,
          held: 0,
          channels: { push: { recipients: 0, held: 0, configured: true } },
          unreachable: { noChannel: 0, noDevice: 0 },
        })}
      />,
    );
    const alert = screen.getByRole('alert');
    expect(alert).toHaveTextContent('Nobody will receive this alert.');
    expect(alert).toHaveTextContent('It concerns nobody: no one’s preferences or area match it.');
    expect(alert).toHaveTextContent('Sending it still records the alert, but no notification goes out.');
    expect(screen.queryByText(/This alert will reach/)).not.toBeInTheDocument();
  });

  it('says nobody will receive it when the people it concerns cannot be reached, and why', () => {
    render(
      <AudienceSummary
        audience={audience({
          concerned: 99,
          recipients: 0,
          held: 0,
          channels: { push: { recipients: 0, held: 0, configured: true } },
          unreachable: { noChannel: 87, noDevice: 12 },
        })}
      />,
    );
    expect(screen.getByRole('alert')).toHaveTextContent('None of the 99 people it concerns can be reached on these channels.');
    expect(screen.getByText(/^Not reached:/)).toHaveTextContent(
      '87 people it concerns have none of these channels on; 12 have push on but no browser subscribed.',
    );
  });
});

describe('AudienceConfirm', () => {
  function setup(preview: { data?: AlertAudience; error?: unknown; isLoading: boolean }, sending = false) {
    const handlers = { onConfirm: jest.fn(), onRetry: jest.fn(), onCancel: jest.fn() };
    const user = userEvent.setup();
    const utils = render(<AudienceConfirm preview={preview} sending={sending} {...handlers} />);
    return { user, ...handlers, ...utils };
  }

  it('is a region named by its heading, which takes the focus, so a further Enter sends nothing', async () => {
    const { user, onConfirm } = setup({ data: audience(), isLoading: false });
    const heading = screen.getByRole('heading', { name: 'Who this alert will reach' });
    expect(screen.getByRole('region', { name: 'Who this alert will reach' })).toContainElement(heading);
    expect(heading).toHaveFocus();
    await user.keyboard('{Enter}{Enter}');
    expect(onConfirm).not.toHaveBeenCalled();
  });

  it('keeps the confirmation disabled while it counts', () => {
    setup({ isLoading: true });
    expect(screen.getByText('Counting who this alert will reach...')).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Counting recipients...' })).toBeDisabled();
    expect(screen.queryByRole('button', { name: /^Send/ })).not.toBeInTheDocument();
  });

  it('confirms with the count on the button, by click or from the keyboard', async () => {
    const { user, onConfirm, onCancel } = setup({ data: audience(), isLoading: false });
    const confirm = screen.getByRole('button', { name: 'Send to 1,204 people' });
    expect(confirm).toBeEnabled();
    // From the focused heading: Tab to Cancel, Tab to the confirmation, Enter.
    await user.tab();
    expect(screen.getByRole('button', { name: 'Cancel' })).toHaveFocus();
    await user.tab();
    expect(confirm).toHaveFocus();
    await user.keyboard('{Enter}');
    expect(onConfirm).toHaveBeenCalledTimes(1);

    await user.click(confirm);
    expect(onConfirm).toHaveBeenCalledTimes(2);
    expect(onCancel).not.toHaveBeenCalled();

    await user.click(screen.getByRole('button', { name: 'Cancel' }));
    expect(onCancel).toHaveBeenCalledTimes(1);
  });

  it('says "Send to 1 person" and "Send to nobody"', () => {
    const { rerender } = setup({ data: audience({ recipients: 1 }), isLoading: false });
    expect(screen.getByRole('button', { name: 'Send to 1 person' })).toBeEnabled();
    rerender(
      <AudienceConfirm
        preview={{ data: audience({ recipients: 0, held: 0 }), isLoading: false }}
        sending={false}
        onConfirm={jest.fn()}
        onRetry={jest.fn()}
        onCancel={jest.fn()}
      />,
    );
    expect(screen.getByRole('button', { name: 'Send to nobody' })).toBeEnabled();
    expect(screen.getByRole('alert')).toHaveTextContent('Nobody will receive this alert.');
  });

  it('after a failed preview shows the error, offers a retry and "Send without a preview"', async () => {
    const { user, onConfirm, onRetry } = setup({ error: { statusCode: 500, code: 'error', message: 'Database unavailable' }, isLoading: false });
    expect(screen.getByRole('alert')).toHaveTextContent('Could not count who this alert will reach. Database unavailable');
    expect(screen.queryByRole('button', { name: /^Send to/ })).not.toBeInTheDocument();
    await user.click(screen.getByRole('button', { name: 'Try the preview again' }));
    expect(onRetry).toHaveBeenCalledTimes(1);
    await user.click(screen.getByRole('button', { name: 'Send without a preview' }));
    expect(onConfirm).toHaveBeenCalledTimes(1);
  });

  it('disables every button while the alert is being created', async () => {
    const { user, onConfirm } = setup({ data: audience(), isLoading: false }, true);
    const sending = screen.getByRole('button', { name: /Sending/ });
    expect(sending).toBeDisabled();
    expect(screen.getByRole('button', { name: 'Cancel' })).toBeDisabled();
    await user.click(sending);
    expect(onConfirm).not.toHaveBeenCalled();
  });
});

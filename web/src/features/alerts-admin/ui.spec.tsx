import { render, screen, within } from '@testing-library/react';
import { DELIVERY_LABELS, emptyCounts } from '@beacon/contracts';
import { ChannelProgress, DeliveryIcon } from './ui';

/** A definition list's terms and what each says. */
const terms = (list: HTMLElement) =>
  Object.fromEntries(
    within(list)
      .getAllByRole('term')
      .map((dt) => [dt.textContent, dt.nextElementSibling?.textContent]),
  );

describe('per-channel counts (Sent Alerts, Quick Send, alert page)', () => {
  it('counts what a provider only accepted as "Sent to provider", and only receipts as "Delivered" (issue #39)', () => {
    render(<ChannelProgress channel="sms" counts={{ ...emptyCounts(), sent: 2, delivered: 1 }} alertTitle="Flood" />);
    const counts = screen.getByLabelText('SMS counts');
    expect(counts).toHaveAttribute('data-testid', 'counts-sms');
    expect(terms(counts)).toMatchObject({ 'Sent to provider': '2', Delivered: '1' });
    expect(within(counts).queryByText('Sent')).toBeNull();
    expect(within(counts).queryByText('no receipts from this provider')).toBeNull();
  });

  it('says beside the counts when the channel’s provider sends no receipts', () => {
    render(<ChannelProgress channel="email" counts={{ ...emptyCounts(), sent: 8 }} alertTitle="Flood" receipts={false} />);
    expect(within(screen.getByLabelText('Email counts')).getByText('no receipts from this provider')).toBeInTheDocument();
  });

  it('names the voice channel', () => {
    render(<ChannelProgress channel="voice" counts={{ ...emptyCounts(), sent: 1 }} alertTitle="Flood" />);
    expect(screen.getByRole('progressbar', { name: 'Voice call delivery progress for Flood' })).toBeInTheDocument();
  });
});

describe('DeliveryIcon', () => {
  it('gives every label a class of its own, and the green tick only to All Delivered', () => {
    const { container } = render(
      <>
        {DELIVERY_LABELS.map((l) => (
          <DeliveryIcon key={l} label={l} />
        ))}
      </>,
    );
    const classes = [...container.querySelectorAll('.delivery-icon')].map((e) => e.className.replace('delivery-icon ', ''));
    expect(classes).toEqual([
      'delivery-pending',
      'delivery-all-delivered',
      'delivery-sent-to-provider',
      'delivery-partial',
      'delivery-failed',
      'delivery-not-sent',
      'delivery-no-recipients',
    ]);
    const green = [...container.querySelectorAll('svg')].filter((s) => s.getAttribute('stroke') === '#16a34a');
    expect(green).toHaveLength(1);
    expect(green[0].closest('.delivery-icon')).toHaveClass('delivery-all-delivered');
  });
});

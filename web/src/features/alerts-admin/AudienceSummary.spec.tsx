import { render, screen, within } from '@testing-library/react';
import type { AlertAudience } from '@beacon/contracts';
import { AudienceSummary } from './AudienceSummary';

const audience = (o: Partial<AlertAudience> = {}): AlertAudience => ({
  token: 'preview-token',
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

  it('starts with the words of the action it is about', () => {
    render(<AudienceSummary audience={audience({ held: 0 })} lead="The all-clear will tell" />);
    expect(screen.getByText(/will tell/)).toHaveTextContent(/^The all-clear will tell 1,204 people\.$/);
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

  it('says how many it concerns replied STOP and get no SMS (issue #39)', () => {
    // the server counts them among those no channel reaches, with a reason of their own, as push without a browser
    render(<AudienceSummary audience={audience({ unreachable: { noChannel: 5, noDevice: 0, smsStopped: 3 } })} />);
    expect(screen.getByText(/^Not reached:/)).toHaveTextContent(
      "Not reached: 5 people it concerns have none of these channels on; 3 have SMS on but replied STOP to Beacon's texts, so none is sent to them.",
    );
  });

  it('counts the voice channel like the others', () => {
    render(<AudienceSummary audience={audience({ channels: { voice: { recipients: 96, held: 4, configured: true } } })} />);
    expect(channelLines()).toEqual(['Voice call: 96 (4 later, in their quiet hours or digest)']);
  });

  describe('by target (issue #42)', () => {
    /** The list's own lines (a multi-area's parts are a list inside the area's line), each without what it holds. */
    const targets = () => {
      const list = screen.getByRole('list', { name: 'People per target' });
      return within(list)
        .getAllByRole('listitem')
        .filter((li) => li.parentElement === list)
        .map((li) => li.firstChild?.textContent);
    };

    it("says each part of a multi-area by its name (or its number) and each group, in the people's plural", () => {
      render(
        <AudienceSummary
          audience={audience({
            byTarget: {
              area: 900,
              areaParts: [700, 1, 250],
              groups: [
                { id: 'g1', name: 'Road crews', concerned: 12, external: 3 },
                { id: 'g2', name: 'Night shift', concerned: 1, external: 0 },
              ],
            },
          })}
          partNames={['Kings County', '', 'Queens']}
        />,
      );
      expect(targets()).toEqual(['Area: 900 people', 'Road crews: 12 people, of them 3 without an account', 'Night shift: 1 person']);
      expect(
        within(screen.getByRole('list', { name: 'Parts of the area' }))
          .getAllByRole('listitem')
          .map((li) => li.textContent),
      ).toEqual(['Part 1 (Kings County): 700 people', 'Part 2: 1 person', 'Part 3 (Queens): 250 people']);
      expect(screen.getByText(/counted once in the total/)).toHaveTextContent(
        'Each line counts everyone that target concerns, reached or not; a person in two of them is counted once in the total.',
      );
    });

    it('has no area line for an alert to groups only, and no note for a single line', () => {
      render(<AudienceSummary audience={audience({ byTarget: { area: null, groups: [{ id: 'g1', name: 'Road crews', concerned: 1, external: 1 }] } })} />);
      expect(targets()).toEqual(['Road crews: 1 person, of them 1 without an account']);
      expect(screen.queryByText(/counted once/)).not.toBeInTheDocument();
    });

    it('says nothing by target when the preview has no breakdown (one area, no group)', () => {
      render(<AudienceSummary audience={audience()} />);
      expect(screen.queryByRole('list', { name: 'People per target' })).not.toBeInTheDocument();
    });
  });
});

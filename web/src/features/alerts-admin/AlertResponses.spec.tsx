import { screen, within } from '@testing-library/react';
import { AlertResponsesCard } from './AlertResponses';
import { renderScreen } from './test-utils';

describe('Answers (alert detail)', () => {
  it("counts I'm Safe marks and help requests, the open ones apart, and links to the help requests", () => {
    renderScreen(<AlertResponsesCard responses={{ safe: 7, needHelp: 3, helpOpen: 2 }} />);
    const [safe, help] = within(screen.getByRole('list', { name: 'Answers to this alert' })).getAllByRole('listitem');
    expect(safe).toHaveTextContent("I'm Safe: 7");
    expect(help).toHaveTextContent('Need help: 3 (2 open)');
    expect(screen.getByRole('link', { name: 'Help requests' })).toHaveAttribute('href', '/admin/help-requests');
  });

  it('says zero when nobody answered', () => {
    renderScreen(<AlertResponsesCard responses={{ safe: 0, needHelp: 0, helpOpen: 0 }} />);
    expect(screen.getByText(/I'm Safe:/)).toHaveTextContent("I'm Safe: 0");
    expect(screen.getByText(/Need help:/)).toHaveTextContent('Need help: 0 (0 open)');
  });
});

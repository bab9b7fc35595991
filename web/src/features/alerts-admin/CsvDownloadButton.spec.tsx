import { render, screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { Toaster } from 'react-hot-toast';
import { CsvDownloadButton } from './CsvDownloadButton';

jest.mock('@/features/auth/auth-client', () => ({ accessToken: async () => 'token-1' }));

describe('CsvDownloadButton', () => {
  beforeEach(() => {
    URL.createObjectURL = jest.fn(() => 'blob:report');
    URL.revokeObjectURL = jest.fn();
  });

  it('fetches the report with the access token and hands it over as a download', async () => {
    const fetchMock = jest.fn(async () => new Response('"Delivery"\r\n', { status: 200, headers: { 'content-type': 'text/csv' } }));
    global.fetch = fetchMock as unknown as typeof fetch;
    const click = jest.spyOn(HTMLAnchorElement.prototype, 'click').mockImplementation(() => undefined);
    render(<CsvDownloadButton url="/api/alerts/a-1/deliveries.csv" fileName="alert-a-1-recipients.csv" label="Recipient report (CSV)" />);
    await userEvent.click(screen.getByRole('button', { name: 'Recipient report (CSV)' }));
    await waitFor(() => expect(click).toHaveBeenCalledTimes(1));
    expect(fetchMock).toHaveBeenCalledWith('/api/alerts/a-1/deliveries.csv', { headers: { authorization: 'Bearer token-1' } });
    expect(URL.createObjectURL).toHaveBeenCalled();
    click.mockRestore();
  });

  it("shows the server's message when the report cannot be made", async () => {
    global.fetch = jest.fn(async () => new Response(JSON.stringify({ message: 'Alert not found' }), { status: 404 })) as unknown as typeof fetch;
    render(
      <>
        <Toaster />
        <CsvDownloadButton url="/api/alerts/a-2/deliveries.csv" fileName="alert-a-2-recipients.csv" label="Recipient report (CSV)" />
      </>,
    );
    await userEvent.click(screen.getByRole('button', { name: 'Recipient report (CSV)' }));
    expect(await screen.findByText('Alert not found')).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Recipient report (CSV)' })).toBeEnabled();
  });
});

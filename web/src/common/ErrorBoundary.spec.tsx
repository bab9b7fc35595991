import { render, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { inLanguage } from '@/test/in-language';
import { ErrorBoundary } from './ErrorBoundary';

function Broken(): never {
  throw new Error('boom');
}

describe('ErrorBoundary', () => {
  it("shows the spec's error screen with a Refresh Page button that reloads", async () => {
    jest.spyOn(console, 'error').mockImplementation(() => undefined);
    const reload = jest.fn();
    render(
      <ErrorBoundary onReload={reload}>
        <Broken />
      </ErrorBoundary>,
    );
    expect(screen.getByText('Something went wrong.')).toBeInTheDocument();
    expect(screen.getByText('We encountered an unexpected error. Please try refreshing the page.')).toBeInTheDocument();
    await userEvent.click(screen.getByRole('button', { name: 'Refresh Page' }));
    expect(reload).toHaveBeenCalled();
  });

  it('shows the error screen in the reader’s language', () => {
    jest.spyOn(console, 'error').mockImplementation(() => undefined);
    render(
      inLanguage(
        'es',
        <ErrorBoundary>
          <Broken />
        </ErrorBoundary>,
      ),
    );
    expect(screen.getByRole('heading', { name: 'Algo salió mal.' })).toBeInTheDocument();
    expect(screen.getByText('Se produjo un error inesperado. Intente actualizar la página.')).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Actualizar la página' })).toBeInTheDocument();
  });
});

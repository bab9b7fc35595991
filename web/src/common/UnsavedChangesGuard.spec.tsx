import { fireEvent, render, screen } from '@testing-library/react';
import { useState } from 'react';
import { createMemoryRouter, Link, RouterProvider } from 'react-router-dom';
import { inLanguage } from '@/test/in-language';
import { UnsavedChangesGuard } from './UnsavedChangesGuard';

function Editor({ what = 'your notes' }: { what?: string }) {
  const [dirty, setDirty] = useState(false);
  return (
    <>
      <h1>Editor</h1>
      <button type="button" onClick={() => setDirty(true)}>
        Edit
      </button>
      <Link to="/elsewhere">Elsewhere</Link>
      <UnsavedChangesGuard when={dirty} what={what} />
    </>
  );
}

function renderAt(what?: string) {
  const router = createMemoryRouter(
    [
      { path: '/', element: <Editor what={what} /> },
      { path: '/elsewhere', element: <h1>Elsewhere</h1> },
    ],
    { initialEntries: ['/'] },
  );
  render(what ? inLanguage('fr', <RouterProvider router={router} />) : <RouterProvider router={router} />);
  return router;
}

describe('UnsavedChangesGuard', () => {
  it('lets the user leave freely while nothing is edited', async () => {
    const router = renderAt();
    fireEvent.click(screen.getByRole('link', { name: 'Elsewhere' }));
    expect(await screen.findByRole('heading', { name: 'Elsewhere' })).toBeInTheDocument();
    expect(router.state.location.pathname).toBe('/elsewhere');
  });

  it('asks before leaving with unsaved changes: Stay keeps the page (focus on Stay), Leave goes', async () => {
    const router = renderAt();
    fireEvent.click(screen.getByRole('button', { name: 'Edit' }));
    fireEvent.click(screen.getByRole('link', { name: 'Elsewhere' }));
    const dialog = await screen.findByRole('alertdialog', { name: 'Leave without saving?' });
    expect(dialog).toHaveTextContent('You have unsaved changes to your notes.');
    expect(screen.getByRole('button', { name: 'Stay on this page' })).toHaveFocus();
    fireEvent.click(screen.getByRole('button', { name: 'Stay on this page' }));
    expect(screen.queryByRole('alertdialog')).not.toBeInTheDocument();
    expect(router.state.location.pathname).toBe('/');

    fireEvent.click(screen.getByRole('link', { name: 'Elsewhere' }));
    fireEvent.click(await screen.findByRole('button', { name: 'Leave without saving' }));
    expect(await screen.findByRole('heading', { name: 'Elsewhere' })).toBeInTheDocument();
  });

  it('has the browser ask when the tab is closed with unsaved changes', () => {
    renderAt();
    const before = new Event('beforeunload', { cancelable: true });
    window.dispatchEvent(before);
    expect(before.defaultPrevented).toBe(false);
    fireEvent.click(screen.getByRole('button', { name: 'Edit' }));
    const after = new Event('beforeunload', { cancelable: true });
    window.dispatchEvent(after);
    expect(after.defaultPrevented).toBe(true);
  });

  it('asks in the reader’s language, naming what they would lose in it', async () => {
    renderAt('vos notes');
    fireEvent.click(screen.getByRole('button', { name: 'Edit' }));
    fireEvent.click(screen.getByRole('link', { name: 'Elsewhere' }));
    const dialog = await screen.findByRole('alertdialog', { name: 'Quitter sans enregistrer\u00a0?' });
    expect(dialog).toHaveTextContent('Vous avez des modifications non enregistrées dans vos notes.');
    expect(screen.getByRole('button', { name: 'Rester sur cette page' })).toHaveFocus();
    expect(screen.getByRole('button', { name: 'Quitter sans enregistrer' })).toBeInTheDocument();
  });
});

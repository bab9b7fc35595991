import { act, fireEvent, render, screen, within } from '@testing-library/react';
import { createMemoryRouter, RouterProvider } from 'react-router-dom';
import { inLanguage } from '@/test/in-language';
import { FAQ_ITEMS } from './faq-data';
import { FaqPage } from './FaqPage';

function renderFaq(entry = '/faq', language?: 'es' | 'ko') {
  const router = createMemoryRouter([{ path: '/faq', element: <FaqPage /> }], { initialEntries: [entry] });
  const page = <RouterProvider router={router} />;
  render(language ? inLanguage(language, page) : page);
  return router;
}

const questions = () =>
  screen
    .getAllByRole('button', { expanded: false })
    .concat(screen.queryAllByRole('button', { expanded: true }))
    .filter((b) => b.id.startsWith('faq-q-'));
const question = (text: string) => screen.getByRole('button', { name: text });
const expanded = () => screen.queryAllByRole('button', { expanded: true }).map((b) => b.textContent?.replace(/[+−]$/, ''));

let scrolled: string[];
beforeEach(() => {
  scrolled = [];
  Element.prototype.scrollIntoView = jest.fn(function (this: Element) {
    scrolled.push(this.id);
  });
});

describe('FaqPage', () => {
  it('lists 16 questions, all closed, with category chips and links to contact and premium', () => {
    renderFaq();
    expect(FAQ_ITEMS).toHaveLength(16);
    expect(questions()).toHaveLength(16);
    expect(expanded()).toEqual([]);
    const chips = within(screen.getByRole('group', { name: 'Categories' }))
      .getAllByRole('button')
      .map((b) => b.textContent);
    expect(chips).toEqual(['All', 'Safety', 'Plans & Pricing', 'Technical', 'Privacy']);
    expect(screen.getByRole('link', { name: 'Contact Support' })).toHaveAttribute('href', '/contact');
    expect(screen.getByRole('link', { name: 'View Premium Plans' })).toHaveAttribute('href', '/premium');
  });

  it('searches questions and answers case-insensitively and combines with the category', () => {
    renderFaq();
    fireEvent.change(screen.getByRole('searchbox', { name: 'Search questions' }), { target: { value: 'MONEY-BACK' } });
    expect(questions().map((q) => q.id)).toEqual(['faq-q-free-trial']);
    fireEvent.change(screen.getByRole('searchbox', { name: 'Search questions' }), { target: { value: 'location' } });
    const all = questions().length;
    expect(all).toBeGreaterThan(2);
    fireEvent.click(screen.getByRole('button', { name: 'Privacy' }));
    expect(screen.getByRole('button', { name: 'Privacy' })).toHaveAttribute('aria-pressed', 'true');
    expect(
      questions()
        .map((q) => q.id)
        .sort(),
    ).toEqual(['faq-q-data-collected', 'faq-q-location-sharing']);
  });

  it("shows 'No results found' and Clear filters brings every question back", () => {
    renderFaq();
    fireEvent.click(screen.getByRole('button', { name: 'Plans & Pricing' }));
    fireEvent.change(screen.getByRole('searchbox', { name: 'Search questions' }), { target: { value: 'wrong-way' } });
    expect(screen.getByText('No results found')).toBeInTheDocument();
    fireEvent.click(screen.getByRole('button', { name: 'Clear filters' }));
    expect(questions()).toHaveLength(16);
    expect(screen.getByRole('searchbox', { name: 'Search questions' })).toHaveValue('');
    expect(screen.getByRole('button', { name: 'All' })).toHaveAttribute('aria-pressed', 'true');
  });

  it('opens one item at a time and keeps the URL hash in step', () => {
    const router = renderFaq();
    fireEvent.click(question('What is Beacon?'));
    expect(expanded()).toEqual(['What is Beacon?']);
    expect(router.state.location.hash).toBe('#what-is-beacon');
    expect(screen.getByText(/Beacon is a public safety alert system/)).toBeVisible();

    fireEvent.click(question('Is my location shared with anyone?'));
    expect(expanded()).toEqual(['Is my location shared with anyone?']);
    expect(router.state.location.hash).toBe('#location-sharing');
    expect(screen.getByText(/Beacon is a public safety alert system/)).not.toBeVisible();

    fireEvent.click(question('Is my location shared with anyone?'));
    expect(expanded()).toEqual([]);
    expect(router.state.location.hash).toBe('');
    // clicking does not scroll the page under the user's pointer
    expect(scrolled).toEqual([]);
  });

  it('opens and scrolls to the item named by a deep link', () => {
    renderFaq('/faq#free-trial');
    expect(expanded()).toEqual(['Is there a free trial or a money-back guarantee?']);
    expect(scrolled).toEqual(['free-trial']);
    expect(question('Is there a free trial or a money-back guarantee?')).toHaveFocus();
  });

  it('ignores a hash that names no question', () => {
    renderFaq('/faq#nothing-here');
    expect(expanded()).toEqual([]);
    expect(scrolled).toEqual([]);
  });

  it('follows the hash when it changes by navigation (back/forward or an in-page link)', async () => {
    const router = renderFaq();
    await act(() => router.navigate('/faq#delete-account'));
    expect(await screen.findByRole('button', { name: 'How do I delete my account and data?', expanded: true })).toBeInTheDocument();
    expect(scrolled).toEqual(['delete-account']);
  });

  it('answers what voice does in the open app and what a phone call adds, and a search for "voice" finds it', () => {
    renderFaq();
    fireEvent.change(screen.getByRole('searchbox', { name: 'Search questions' }), { target: { value: 'phone call' } });
    fireEvent.click(question('How do I turn on notifications?'));
    const answer = document.getElementById(question('How do I turn on notifications?').getAttribute('aria-controls')!)!;
    expect(answer).toHaveTextContent(
      /reads every new alert, update and all-clear for your area aloud, in the alert’s language, on whichever page you are on, once/,
    );
    expect(answer).toHaveTextContent('A browser can only speak while Beacon is open in it');
    expect(answer).toHaveTextContent(
      /when an administrator sends an alert by voice call, Beacon calls you, .* pressing 1 if you are safe or 2 if you need help/,
    );
    // nowhere a promise that the phone reads alerts aloud while driving, whatever the app's state
    for (const item of FAQ_ITEMS) expect(item.answer.defaultMessage).not.toMatch(/voice alerts read the warning aloud for you\. If/);
  });

  describe('in Spanish', () => {
    const search = () => screen.getByRole('searchbox', { name: 'Buscar preguntas' });

    it('shows the page, its categories and its questions in Spanish', () => {
      renderFaq('/faq', 'es');
      expect(screen.getByRole('heading', { level: 1, name: 'Preguntas frecuentes' })).toBeInTheDocument();
      expect(search()).toHaveAttribute('placeholder', 'Buscar preguntas...');
      const chips = within(screen.getByRole('group', { name: 'Categorías' }))
        .getAllByRole('button')
        .map((b) => b.textContent);
      expect(chips).toEqual(['Todas', 'Seguridad', 'Planes y precios', 'Técnico', 'Privacidad']);
      expect(questions()).toHaveLength(16);
      expect(question('¿Qué es Beacon?')).toBeInTheDocument();
      expect(screen.getByRole('link', { name: 'Contactar a soporte' })).toHaveAttribute('href', '/contact');
    });

    it('searches the Spanish text, accents or not, and opens the Spanish answer', () => {
      renderFaq('/faq', 'es');
      fireEvent.change(search(), { target: { value: 'Devolución del dinero' } });
      expect(questions().map((q) => q.id)).toEqual(['faq-q-free-trial']);
      fireEvent.change(search(), { target: { value: 'devolucion' } });
      expect(questions().map((q) => q.id)).toEqual(['faq-q-free-trial']);
      // the English words are not what a Spanish reader searches
      fireEvent.change(search(), { target: { value: 'money-back' } });
      expect(screen.getByRole('heading', { name: 'No se encontraron resultados' })).toBeInTheDocument();
      fireEvent.click(screen.getByRole('button', { name: 'Borrar filtros' }));
      fireEvent.click(question('¿Hay una prueba gratuita o una garantía de devolución del dinero?'));
      expect(screen.getByText(/prueba gratuita de 14 días y una garantía de devolución del dinero de 30 días/)).toBeVisible();
    });

    it('answers the notifications question with the voice texts in Spanish, and a search finds them', () => {
      renderFaq('/faq', 'es');
      fireEvent.change(search(), { target: { value: 'llamada de voz' } });
      expect(questions().map((q) => q.id)).toEqual(['faq-q-enable-notifications']);
      fireEvent.click(question('¿Cómo activo las notificaciones?'));
      const answer = document.getElementById('faq-a-enable-notifications')!;
      expect(answer).toHaveTextContent(/^Permita las notificaciones cuando su navegador se lo pida/);
      expect(answer).toHaveTextContent('la aplicación Beacon abierta lee en voz alta cada alerta nueva');
      expect(answer).toHaveTextContent('Un navegador solo puede hablar mientras Beacon está abierto en él');
      expect(answer).toHaveTextContent(/Beacon le llama, .* pulsando 1 si está a salvo o 2 si necesita ayuda/);
      expect(answer).not.toHaveTextContent(/\{|Allow notifications/);
    });
  });

  it('searches the Korean text, finding a word while its last syllable is still being typed', () => {
    renderFaq('/faq', 'ko');
    const search = screen.getByRole('searchbox', { name: '질문 검색' });
    fireEvent.change(search, { target: { value: '환불 보장' } });
    expect(questions().map((q) => q.id)).toEqual(['faq-q-free-trial']);
    // 환불 (refund) half typed: the keyboard shows 환부 before the final ㄹ joins the syllable
    fireEvent.change(search, { target: { value: '환부' } });
    expect(questions().map((q) => q.id)).toEqual(['faq-q-free-trial']);
  });
});

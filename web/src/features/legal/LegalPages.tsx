import { Link } from 'react-router-dom';
import { FAQ_ITEMS, type FaqItem } from '@/features/faq/faq-data';

function answers(ids: readonly string[]): FaqItem[] {
  return ids.map((id) => FAQ_ITEMS.find((item) => item.id === id)).filter((item): item is FaqItem => Boolean(item));
}

/** Questions and their answers, each linking to its entry in the FAQ. */
function Answers({ items }: { items: FaqItem[] }) {
  return (
    <>
      {items.map((item) => (
        <section key={item.id} aria-labelledby={`legal-${item.id}`}>
          <h2 id={`legal-${item.id}`}>{item.question}</h2>
          <p>{item.answer}</p>
          <Link to={`/faq#${item.id}`}>This answer in the FAQ</Link>
        </section>
      ))}
    </>
  );
}

/**
 * The sign-up form's "Terms of Service" (opened in a new tab, so the form is kept). It states what Beacon is and is
 * not, in the words the FAQ uses; it is no substitute for terms a lawyer has written, and says so.
 */
export function TermsPage() {
  return (
    <main className="page legal-page" aria-labelledby="terms-title">
      <h1 id="terms-title">Terms of Service</h1>
      <p className="muted">The essentials of using Beacon, as our FAQ answers them.</p>
      <Answers items={answers(['what-is-beacon', 'replace-911', 'free-plan', 'cancel-plan', 'delete-account'])} />
      <p>
        Questions about these terms: see <Link to="/contact">Contact Support</Link>.
      </p>
    </main>
  );
}

/** The sign-up form's "Privacy Policy": what Beacon collects and shares, from the FAQ's privacy answers. */
export function PrivacyPage() {
  return (
    <main className="page legal-page" aria-labelledby="privacy-title">
      <h1 id="privacy-title">Privacy Policy</h1>
      <p className="muted">What Beacon collects, what it shares and how you remove it.</p>
      <Answers items={answers(['data-collected', 'location-sharing', 'location-accuracy', 'delete-account'])} />
      <p>
        Questions about your data: see <Link to="/contact">Contact Support</Link>.
      </p>
    </main>
  );
}

/** Where the FAQ's "Contact Support" leads: the ways to reach help that Beacon actually has. */
export function ContactPage() {
  return (
    <main className="page legal-page" aria-labelledby="contact-title">
      <h1 id="contact-title">Contact Support</h1>
      <section aria-labelledby="contact-emergency">
        <h2 id="contact-emergency">In an emergency</h2>
        <p>
          Call <a href="tel:911">911</a> first. Beacon warns; it does not send help.
        </p>
      </section>
      <section aria-labelledby="contact-alert">
        <h2 id="contact-alert">About an alert you received</h2>
        <p>
          Open the alert under <Link to="/alerts">Alerts</Link> and press <strong>Request Help</strong>: the operators who sent it see your request at once.
        </p>
      </section>
      <section aria-labelledby="contact-account">
        <h2 id="contact-account">Your account, plans and notifications</h2>
        <p>
          Most questions are answered in the <Link to="/faq">FAQ</Link>: <Link to="/faq#alerts-not-arriving">alerts not arriving</Link>,{' '}
          <Link to="/faq#enable-notifications">turning on notifications</Link>, <Link to="/faq#delete-account">deleting your account</Link>. Your e-mail
          address, password and two-factor sign-in are on your <Link to="/profile">Profile</Link>.
        </p>
      </section>
    </main>
  );
}

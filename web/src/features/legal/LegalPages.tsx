import type { ReactNode } from 'react';
import { FormattedMessage, useIntl } from 'react-intl';
import { Link } from 'react-router-dom';
import { FAQ_ITEMS, faqText, type FaqItem } from '@/features/faq/faq-data';

function answers(ids: readonly string[]): FaqItem[] {
  return ids.map((id) => FAQ_ITEMS.find((item) => item.id === id)).filter((item): item is FaqItem => Boolean(item));
}

/** A rich-text tag of a message that links inside the app. */
const linkTo =
  (to: string) =>
  (chunks: ReactNode[]): ReactNode => <Link to={to}>{chunks}</Link>;

/** Questions and their answers, in the reader's language, each linking to its entry in the FAQ. */
function Answers({ items }: { items: FaqItem[] }) {
  const intl = useIntl();
  return (
    <>
      {items.map((item) => {
        const { question, answer } = faqText(item, intl);
        return (
          <section key={item.id} aria-labelledby={`legal-${item.id}`}>
            <h2 id={`legal-${item.id}`}>{question}</h2>
            <p>{answer}</p>
            <Link to={`/faq#${item.id}`}>
              <FormattedMessage id="legal.answers.inFaq" defaultMessage="This answer in the FAQ" />
            </Link>
          </section>
        );
      })}
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
      <h1 id="terms-title">
        <FormattedMessage id="legal.terms.title" defaultMessage="Terms of Service" />
      </h1>
      <p className="muted">
        <FormattedMessage id="legal.terms.lead" defaultMessage="The essentials of using Beacon, as our FAQ answers them." />
      </p>
      <Answers items={answers(['what-is-beacon', 'replace-911', 'free-plan', 'cancel-plan', 'delete-account'])} />
      <p>
        <FormattedMessage
          id="legal.terms.questions"
          defaultMessage="Questions about these terms: see <contact>Contact Support</contact>."
          values={{ contact: linkTo('/contact') }}
        />
      </p>
    </main>
  );
}

/** The sign-up form's "Privacy Policy": what Beacon collects and shares, from the FAQ's privacy answers. */
export function PrivacyPage() {
  return (
    <main className="page legal-page" aria-labelledby="privacy-title">
      <h1 id="privacy-title">
        <FormattedMessage id="legal.privacy.title" defaultMessage="Privacy Policy" />
      </h1>
      <p className="muted">
        <FormattedMessage id="legal.privacy.lead" defaultMessage="What Beacon collects, what it shares and how you remove it." />
      </p>
      <Answers items={answers(['data-collected', 'location-sharing', 'location-accuracy', 'delete-account'])} />
      <p>
        <FormattedMessage
          id="legal.privacy.questions"
          defaultMessage="Questions about your data: see <contact>Contact Support</contact>."
          values={{ contact: linkTo('/contact') }}
        />
      </p>
    </main>
  );
}

/** Where the FAQ's "Contact Support" leads: the ways to reach help that Beacon actually has. */
export function ContactPage() {
  return (
    <main className="page legal-page" aria-labelledby="contact-title">
      <h1 id="contact-title">
        <FormattedMessage id="legal.contact.title" defaultMessage="Contact Support" />
      </h1>
      <section aria-labelledby="contact-emergency">
        <h2 id="contact-emergency">
          <FormattedMessage id="legal.contact.emergencyTitle" defaultMessage="In an emergency" />
        </h2>
        <p>
          <FormattedMessage
            id="legal.contact.emergency"
            defaultMessage="Call <tel>911</tel> first. Beacon warns; it does not send help."
            values={{ tel: (chunks: ReactNode[]) => <a href="tel:911">{chunks}</a> }}
          />
        </p>
      </section>
      <section aria-labelledby="contact-alert">
        <h2 id="contact-alert">
          <FormattedMessage id="legal.contact.alertTitle" defaultMessage="About an alert you received" />
        </h2>
        <p>
          <FormattedMessage
            id="legal.contact.alert"
            description="<alerts> links to the Alerts page; <strong> is the name of the alert page's Request Help button, as that button says it."
            defaultMessage="Open the alert under <alerts>Alerts</alerts> and press <strong>Request Help</strong>: the operators who sent it see your request at once."
            values={{ alerts: linkTo('/alerts'), strong: (chunks: ReactNode[]) => <strong>{chunks}</strong> }}
          />
        </p>
      </section>
      <section aria-labelledby="contact-account">
        <h2 id="contact-account">
          <FormattedMessage id="legal.contact.accountTitle" defaultMessage="Your account, plans and notifications" />
        </h2>
        <p>
          <FormattedMessage
            id="legal.contact.account"
            defaultMessage="Most questions are answered in the <faq>FAQ</faq>: <notArriving>alerts not arriving</notArriving>, <notifications>turning on notifications</notifications>, <deleteAccount>deleting your account</deleteAccount>. Your e-mail address, password and two-factor sign-in are on your <profile>Profile</profile>."
            values={{
              faq: linkTo('/faq'),
              notArriving: linkTo('/faq#alerts-not-arriving'),
              notifications: linkTo('/faq#enable-notifications'),
              deleteAccount: linkTo('/faq#delete-account'),
              profile: linkTo('/profile'),
            }}
          />
        </p>
      </section>
    </main>
  );
}

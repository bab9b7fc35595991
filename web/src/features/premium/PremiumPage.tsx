import { useMemo, useState } from 'react';
import toast from 'react-hot-toast';
import { FormattedMessage, useIntl } from 'react-intl';
import { Link } from 'react-router-dom';
import { useAppSelector } from '@/app/hooks';
import { IconCards, SimulatedTestimonials } from '@/common/marketing';
import { VOICE_TEXTS } from '@/common/voice-texts';
import { selectAuthStatus } from '@/features/auth/auth.slice';
import { currentIntl, defineMessages } from '@/i18n';
import { ANNUAL_DISCOUNT_PERCENT, FAMILY_USERS, MONEY_BACK_DAYS, PLANS, planValues, PREMIUM_TOASTS, TRIAL_DAYS, usd, type Plan } from './plans';
import './premium.css';
import { Archive, Camera, Check, Minus, Plus, Radar, ShieldCheck, Users, Volume2, Zap } from 'lucide-react';
import { INFO_TOAST_ICON } from '@/common/icons';

const T = defineMessages({
  radiusTitle: { id: 'premium.feature.radiusTitle', defaultMessage: 'Wider Alert Radius' },
  radius: { id: 'premium.feature.radius', defaultMessage: 'Get warned about dangers up to 100 miles away, not just around the corner.' },
  historyTitle: { id: 'premium.feature.historyTitle', defaultMessage: 'Full Alert History' },
  history: { id: 'premium.feature.history', defaultMessage: 'Look back over 90 days, or keep everything with Family/Team.' },
  camerasTitle: { id: 'premium.feature.camerasTitle', defaultMessage: 'Live Traffic Cameras' },
  cameras: { id: 'premium.feature.cameras', defaultMessage: 'Watch 100+ highway cameras before you set off.' },
  familyTitle: { id: 'premium.feature.familyTitle', defaultMessage: 'Family Sharing' },
  family: { id: 'premium.feature.family', defaultMessage: 'Keep up to {users} people covered on one plan.' },
  priorityTitle: { id: 'premium.feature.priorityTitle', defaultMessage: 'Priority Delivery' },
  priority: { id: 'premium.feature.priority', defaultMessage: 'Critical alerts go out to Premium members first.' },
  quoteCommute: {
    id: 'premium.testimonial.commute',
    defaultMessage: 'The 50-mile radius means I hear about closures on my whole commute, not just my street.',
  },
  roleCommute: { id: 'premium.testimonial.commuteRole', defaultMessage: 'Sales rep, Mesa' },
  quoteFamily: { id: 'premium.testimonial.family', defaultMessage: 'Family/Team covers my parents, my kids and me. Everyone gets the same warnings.' },
  roleFamily: { id: 'premium.testimonial.familyRole', defaultMessage: 'Parent of three' },
  quoteCameras: { id: 'premium.testimonial.cameras', defaultMessage: 'Checking the cameras before a night drive has become a habit.' },
  roleCameras: { id: 'premium.testimonial.camerasRole', defaultMessage: 'Nurse, night shifts' },
  faqTrialQ: { id: 'premium.faq.trialQuestion', defaultMessage: 'Can I try Premium before paying?' },
  faqTrialA: {
    id: 'premium.faq.trialAnswer',
    defaultMessage: 'Yes. Paid plans start with a {trialDays}-day free trial. You will not be charged if you cancel before it ends.',
  },
  faqRefundQ: { id: 'premium.faq.refundQuestion', defaultMessage: 'What if Premium is not for me?' },
  faqRefundA: { id: 'premium.faq.refundAnswer', defaultMessage: 'Every paid plan has a {refundDays}-day money-back guarantee, no questions asked.' },
  faqFamilyQ: { id: 'premium.faq.familyQuestion', defaultMessage: 'How does the Family/Team plan work?' },
  faqFamilyA: {
    id: 'premium.faq.familyAnswer',
    defaultMessage:
      'It costs {familyPrice} per month and covers {users} users. Each extra user is {extraPrice} per month. Every member gets the full Premium features.',
  },
  faqYearlyQ: { id: 'premium.faq.yearlyQuestion', defaultMessage: 'Is there a discount for paying yearly?' },
  faqYearlyA: { id: 'premium.faq.yearlyAnswer', defaultMessage: 'Yes. Annual billing saves {discount} compared with paying monthly.' },
  faqCancelQ: { id: 'premium.faq.cancelQuestion', defaultMessage: 'Can I cancel at any time?' },
  faqCancelA: {
    id: 'premium.faq.cancelAnswer',
    defaultMessage: 'Yes. You keep Premium until the end of the period you paid for, then move back to the Free plan.',
  },
  faqPaymentQ: { id: 'premium.faq.paymentQuestion', defaultMessage: 'Which payment methods will you accept?' },
  faqPaymentA: {
    id: 'premium.faq.paymentAnswer',
    defaultMessage:
      'Major credit and debit cards, PayPal, Apple Pay and Google Pay. Payments are processed by our payment provider; Beacon never stores card numbers.',
  },
});

const FEATURES = [
  { key: 'radius', icon: <Radar size={28} />, title: T.radiusTitle, text: T.radius },
  { key: 'history', icon: <Archive size={28} />, title: T.historyTitle, text: T.history },
  { key: 'cameras', icon: <Camera size={28} />, title: T.camerasTitle, text: T.cameras },
  // voice alerts are every user's (the Free plan's too): the card says so rather than selling them
  { key: 'voice', icon: <Volume2 size={28} />, title: VOICE_TEXTS.everyPlanTitle, text: VOICE_TEXTS.everyPlan },
  { key: 'family', icon: <Users size={28} />, title: T.familyTitle, text: T.family },
  { key: 'priority', icon: <Zap size={28} />, title: T.priorityTitle, text: T.priority },
] as const;

/** The people are made up (the testimonials say they are simulated); their names stay as written. */
const TESTIMONIALS = [
  { quote: T.quoteCommute, name: 'Alex P.', role: T.roleCommute },
  { quote: T.quoteFamily, name: 'Priya S.', role: T.roleFamily },
  { quote: T.quoteCameras, name: 'Tom W.', role: T.roleCameras },
] as const;

const FAQ = [
  { q: T.faqTrialQ, a: T.faqTrialA },
  { q: T.faqRefundQ, a: T.faqRefundA },
  { q: T.faqFamilyQ, a: T.faqFamilyA },
  { q: T.faqYearlyQ, a: T.faqYearlyA },
  { q: T.faqCancelQ, a: T.faqCancelA },
  { q: T.faqPaymentQ, a: T.faqPaymentA },
] as const;

const PAYMENT_METHODS = ['Visa', 'Mastercard', 'American Express', 'PayPal', 'Apple Pay', 'Google Pay'] as const;

/** Purchases are disabled (spec): every buy or restore action says so. */
const subscriptionsDisabled = () => toast(currentIntl().formatMessage(PREMIUM_TOASTS.disabled), { icon: INFO_TOAST_ICON });
const contactDisabled = () => toast(currentIntl().formatMessage(PREMIUM_TOASTS.contactDisabled), { icon: INFO_TOAST_ICON });

export function PremiumPage() {
  const intl = useIntl();
  const signedIn = useAppSelector(selectAuthStatus) === 'signedIn';
  // The subscription context of the spec is inert: nobody is subscribed while purchases are disabled.
  const isSubscribed = false;
  const [openFaq, setOpenFaq] = useState<number | null>(null);
  const values = useMemo(
    () => ({
      ...planValues(intl),
      refundDays: MONEY_BACK_DAYS,
      familyPrice: usd(PLANS.find((p) => p.id === 'family')?.price ?? 0, intl),
      discount: intl.formatNumber(ANNUAL_DISCOUNT_PERCENT / 100, { style: 'percent' }),
    }),
    [intl],
  );
  const features = FEATURES.map((f) => ({ icon: f.icon, title: intl.formatMessage(f.title), text: intl.formatMessage(f.text, { users: FAMILY_USERS }) }));
  const testimonials = TESTIMONIALS.map((t) => ({ quote: intl.formatMessage(t.quote), name: t.name, role: intl.formatMessage(t.role) }));

  const planAction = (plan: Plan) => {
    if (plan.id === 'free') {
      if (signedIn)
        return (
          <button type="button" className="btn btn-outline btn-block" disabled>
            {isSubscribed ? (
              <FormattedMessage id="premium.plan.freePlan" defaultMessage="Free Plan" />
            ) : (
              <FormattedMessage id="premium.plan.current" defaultMessage="Current Plan" />
            )}
          </button>
        );
      return (
        <Link to="/signup" className="btn btn-outline btn-block">
          <FormattedMessage id="premium.plan.getStarted" defaultMessage="Get Started Free" />
        </Link>
      );
    }
    return (
      <button
        type="button"
        className={`btn btn-block ${plan.popular ? 'btn-primary' : 'btn-outline'}`}
        onClick={subscriptionsDisabled}
        aria-label={intl.formatMessage({ id: 'premium.plan.chooseLabel', defaultMessage: 'Choose {plan} plan' }, { plan: intl.formatMessage(plan.name) })}
      >
        {plan.id === 'family' ? (
          <FormattedMessage id="premium.plan.chooseFamily" defaultMessage="Choose Family/Team" />
        ) : (
          <FormattedMessage id="premium.plan.chooseSingle" defaultMessage="Choose Single User" />
        )}
      </button>
    );
  };

  return (
    <main className="premium-page">
      <section className="premium-hero" aria-labelledby="premium-title">
        <span className="badge badge-live">
          <FormattedMessage id="premium.hero.badge" defaultMessage="Beacon Premium" />
        </span>
        <h1 id="premium-title">
          <FormattedMessage id="premium.hero.title" defaultMessage="More warning. More coverage. More peace of mind." />
        </h1>
        <p>
          <FormattedMessage
            id="premium.hero.lead"
            defaultMessage="Extend your alert radius, keep your full history and watch live cameras. Try it free for {trialDays} days, and save {discount} when you pay yearly."
            values={{ trialDays: values.trialDays, discount: values.discount }}
          />
        </p>
      </section>

      <section className="page" aria-labelledby="premium-features-title">
        <h2 id="premium-features-title" className="center">
          <FormattedMessage id="premium.features.title" defaultMessage="What you get" />
        </h2>
        <IconCards items={features} listClassName="grid-3" cardClassName="premium-feature" iconClassName="premium-feature-icon" />
      </section>

      {!isSubscribed && (
        <aside className="page upsell" aria-label={intl.formatMessage({ id: 'premium.upsell.label', defaultMessage: 'Upgrade' })}>
          <div className="card upsell-card">
            <FormattedMessage
              id="premium.upsell.text"
              defaultMessage="<strong>You are on the Free plan.</strong> Upgrade to hear about dangers up to 50 miles away."
              values={{ strong: (chunks) => <strong>{chunks}</strong> }}
            />
          </div>
        </aside>
      )}

      <section className="page" aria-labelledby="plans-title">
        <h2 id="plans-title" className="center">
          <FormattedMessage id="premium.plans.title" defaultMessage="Choose your plan" />
        </h2>
        <div className="plans">
          {PLANS.map((plan) => (
            <article key={plan.id} className={`card plan ${plan.popular ? 'plan-popular' : ''}`} aria-labelledby={`plan-${plan.id}`}>
              {plan.popular && (
                <span className="badge plan-flag">
                  <FormattedMessage id="premium.plans.popular" defaultMessage="Most Popular" />
                </span>
              )}
              <h3 id={`plan-${plan.id}`}>{intl.formatMessage(plan.name)}</h3>
              <p className="plan-price">
                <span className="plan-amount">{usd(plan.price, intl)}</span> <span className="muted">{intl.formatMessage(plan.period, values)}</span>
              </p>
              <p className="muted small">{intl.formatMessage(plan.note, values)}</p>
              <ul className="plan-features">
                {plan.features.map((f) => (
                  <li key={f.id}>
                    <Check aria-hidden="true" size={16} /> {intl.formatMessage(f, values)}
                  </li>
                ))}
              </ul>
              {planAction(plan)}
            </article>
          ))}
        </div>
        <div className="card guarantee">
          <span className="guarantee-icon" aria-hidden="true">
            <ShieldCheck size={32} />
          </span>
          <div>
            <strong>
              <FormattedMessage id="premium.guarantee.title" defaultMessage="{refundDays}-Day Money-Back Guarantee" values={{ refundDays: MONEY_BACK_DAYS }} />
            </strong>
            <p className="muted small">
              <FormattedMessage
                id="premium.guarantee.text"
                defaultMessage="Not happy? Get a full refund within {refundDays} days."
                values={{ refundDays: MONEY_BACK_DAYS }}
              />
            </p>
          </div>
          {signedIn && (
            <button type="button" className="btn btn-outline btn-sm" onClick={subscriptionsDisabled}>
              <FormattedMessage id="premium.guarantee.restore" defaultMessage="Restore Purchases" />
            </button>
          )}
        </div>
      </section>

      <section className="page" aria-labelledby="premium-testimonials-title">
        <h2 id="premium-testimonials-title" className="center">
          <FormattedMessage id="premium.testimonials.title" defaultMessage="Loved by safety-minded drivers" />
        </h2>
        <SimulatedTestimonials items={testimonials} />
      </section>

      <section className="page premium-faq" aria-labelledby="premium-faq-title">
        <h2 id="premium-faq-title" className="center">
          <FormattedMessage id="premium.faq.title" defaultMessage="Questions about Premium" />
        </h2>
        <ul className="faq-list">
          {FAQ.map((item, i) => {
            const open = openFaq === i;
            return (
              <li key={item.q.id} className={`card premium-faq-item ${open ? 'open' : ''}`}>
                <h3 className="premium-faq-question">
                  <button
                    type="button"
                    id={`premium-faq-${i}`}
                    aria-expanded={open}
                    aria-controls={`premium-faq-${i}-answer`}
                    onClick={() => setOpenFaq(open ? null : i)}
                  >
                    <span>{intl.formatMessage(item.q)}</span>
                    {open ? <Minus aria-hidden="true" size={18} /> : <Plus aria-hidden="true" size={18} />}
                  </button>
                </h3>
                <div id={`premium-faq-${i}-answer`} role="region" aria-labelledby={`premium-faq-${i}`} hidden={!open}>
                  <p className="muted">{intl.formatMessage(item.a, values)}</p>
                </div>
              </li>
            );
          })}
        </ul>
      </section>

      <section className="cta" aria-labelledby="premium-cta-title">
        <h2 id="premium-cta-title">
          <FormattedMessage id="premium.cta.title" defaultMessage="Start your {trialDays}-day free trial" values={{ trialDays: TRIAL_DAYS }} />
        </h2>
        <p>
          <FormattedMessage id="premium.cta.text" defaultMessage="No commitment. Cancel any time." />
        </p>
        <div className="row" style={{ justifyContent: 'center' }}>
          <button type="button" className="btn btn-light" onClick={subscriptionsDisabled}>
            <FormattedMessage id="premium.cta.startTrial" defaultMessage="Start Free Trial" />
          </button>
          <button type="button" className="btn btn-outline-light" onClick={contactDisabled}>
            <FormattedMessage id="premium.cta.contactSales" defaultMessage="Contact Sales" />
          </button>
        </div>
        <div className="payments" aria-label={intl.formatMessage({ id: 'premium.payments.label', defaultMessage: 'Accepted payment methods' })}>
          <p className="small">
            <FormattedMessage id="premium.payments.note" defaultMessage="Secure payments (coming soon)" />
          </p>
          <ul className="row payment-list">
            {PAYMENT_METHODS.map((m) => (
              <li key={m} className="payment-method">
                {m}
              </li>
            ))}
          </ul>
        </div>
      </section>
    </main>
  );
}

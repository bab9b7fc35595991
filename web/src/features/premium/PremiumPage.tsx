import { useState } from 'react';
import toast from 'react-hot-toast';
import { Link } from 'react-router-dom';
import { useAppSelector } from '@/app/hooks';
import { IconCards, SimulatedTestimonials } from '@/common/marketing';
import { VOICE_TEXTS } from '@/common/voice-texts';
import { selectAuthStatus } from '@/features/auth/auth.slice';
import { ANNUAL_DISCOUNT_PERCENT, MONEY_BACK_DAYS, PLANS, PREMIUM_TOASTS, TRIAL_DAYS, type Plan } from './plans';
import './premium.css';
import { Archive, Camera, Check, Radar, ShieldCheck, Users, Volume2, Zap } from 'lucide-react';
import { INFO_TOAST_ICON } from '@/common/icons';

const FEATURES = [
  { icon: <Radar size={28} />, title: 'Wider Alert Radius', text: 'Get warned about dangers up to 100 miles away, not just around the corner.' },
  { icon: <Archive size={28} />, title: 'Full Alert History', text: 'Look back over 90 days, or keep everything with Family/Team.' },
  { icon: <Camera size={28} />, title: 'Live Traffic Cameras', text: 'Watch 100+ highway cameras before you set off.' },
  // voice alerts are every user's (the Free plan's too): the card says so rather than selling them
  { icon: <Volume2 size={28} />, title: VOICE_TEXTS.everyPlanTitle, text: VOICE_TEXTS.everyPlan },
  { icon: <Users size={28} />, title: 'Family Sharing', text: 'Keep up to 5 people covered on one plan.' },
  { icon: <Zap size={28} />, title: 'Priority Delivery', text: 'Critical alerts go out to Premium members first.' },
] as const;

const TESTIMONIALS = [
  { quote: 'The 50-mile radius means I hear about closures on my whole commute, not just my street.', name: 'Alex P.', role: 'Sales rep, Mesa' },
  { quote: 'Family/Team covers my parents, my kids and me. Everyone gets the same warnings.', name: 'Priya S.', role: 'Parent of three' },
  { quote: 'Checking the cameras before a night drive has become a habit.', name: 'Tom W.', role: 'Nurse, night shifts' },
] as const;

const FAQ = [
  {
    q: 'Can I try Premium before paying?',
    a: `Yes. Paid plans start with a ${TRIAL_DAYS}-day free trial. You will not be charged if you cancel before it ends.`,
  },
  { q: 'What if Premium is not for me?', a: `Every paid plan has a ${MONEY_BACK_DAYS}-day money-back guarantee, no questions asked.` },
  {
    q: 'How does the Family/Team plan work?',
    a: 'It costs $30 per month and covers 5 users. Each extra user is $10 per month. Every member gets the full Premium features.',
  },
  { q: 'Is there a discount for paying yearly?', a: `Yes. Annual billing saves ${ANNUAL_DISCOUNT_PERCENT}% compared with paying monthly.` },
  { q: 'Can I cancel at any time?', a: 'Yes. You keep Premium until the end of the period you paid for, then move back to the Free plan.' },
  {
    q: 'Which payment methods will you accept?',
    a: 'Major credit and debit cards, PayPal, Apple Pay and Google Pay. Payments are processed by our payment provider; Beacon never stores card numbers.',
  },
] as const;

const PAYMENT_METHODS = ['Visa', 'Mastercard', 'American Express', 'PayPal', 'Apple Pay', 'Google Pay'] as const;

const usd = new Intl.NumberFormat('en-US', { style: 'currency', currency: 'USD', maximumFractionDigits: 0 });

/** Purchases are disabled (spec): every buy or restore action says so. */
const subscriptionsDisabled = () => toast(PREMIUM_TOASTS.disabled, { icon: INFO_TOAST_ICON });
const contactDisabled = () => toast(PREMIUM_TOASTS.contactDisabled, { icon: INFO_TOAST_ICON });

export function PremiumPage() {
  const signedIn = useAppSelector(selectAuthStatus) === 'signedIn';
  // The subscription context of the spec is inert: nobody is subscribed while purchases are disabled.
  const isSubscribed = false;
  const [openFaq, setOpenFaq] = useState<number | null>(null);

  const planAction = (plan: Plan) => {
    if (plan.id === 'free') {
      if (signedIn)
        return (
          <button type="button" className="btn btn-outline btn-block" disabled>
            {isSubscribed ? 'Free Plan' : 'Current Plan'}
          </button>
        );
      return (
        <Link to="/signup" className="btn btn-outline btn-block">
          Get Started Free
        </Link>
      );
    }
    return (
      <button
        type="button"
        className={`btn btn-block ${plan.popular ? 'btn-primary' : 'btn-outline'}`}
        onClick={subscriptionsDisabled}
        aria-label={`Choose ${plan.name} plan`}
      >
        {plan.id === 'family' ? 'Choose Family/Team' : 'Choose Single User'}
      </button>
    );
  };

  return (
    <main className="premium-page">
      <section className="premium-hero" aria-labelledby="premium-title">
        <span className="badge badge-live">Beacon Premium</span>
        <h1 id="premium-title">More warning. More coverage. More peace of mind.</h1>
        <p>
          Extend your alert radius, keep your full history and watch live cameras. Try it free for {TRIAL_DAYS} days, and save {ANNUAL_DISCOUNT_PERCENT}% when
          you pay yearly.
        </p>
      </section>

      <section className="page" aria-labelledby="premium-features-title">
        <h2 id="premium-features-title" className="center">
          What you get
        </h2>
        <IconCards items={FEATURES} listClassName="grid-3" cardClassName="premium-feature" iconClassName="premium-feature-icon" />
      </section>

      {!isSubscribed && (
        <aside className="page upsell" aria-label="Upgrade">
          <div className="card upsell-card">
            <strong>You are on the Free plan.</strong> Upgrade to hear about dangers up to 50 miles away.
          </div>
        </aside>
      )}

      <section className="page" aria-labelledby="plans-title">
        <h2 id="plans-title" className="center">
          Choose your plan
        </h2>
        <div className="plans">
          {PLANS.map((plan) => (
            <article key={plan.id} className={`card plan ${plan.popular ? 'plan-popular' : ''}`} aria-labelledby={`plan-${plan.id}`}>
              {plan.popular && <span className="badge plan-flag">Most Popular</span>}
              <h3 id={`plan-${plan.id}`}>{plan.name}</h3>
              <p className="plan-price">
                <span className="plan-amount">{usd.format(plan.price)}</span> <span className="muted">{plan.period}</span>
              </p>
              <p className="muted small">{plan.note}</p>
              <ul className="plan-features">
                {plan.features.map((f) => (
                  <li key={f}>
                    <Check aria-hidden="true" size={16} /> {f}
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
            <strong>{MONEY_BACK_DAYS}-Day Money-Back Guarantee</strong>
            <p className="muted small">Not happy? Get a full refund within {MONEY_BACK_DAYS} days.</p>
          </div>
          {signedIn && (
            <button type="button" className="btn btn-outline btn-sm" onClick={subscriptionsDisabled}>
              Restore Purchases
            </button>
          )}
        </div>
      </section>

      <section className="page" aria-labelledby="premium-testimonials-title">
        <h2 id="premium-testimonials-title" className="center">
          Loved by safety-minded drivers
        </h2>
        <SimulatedTestimonials items={TESTIMONIALS} />
      </section>

      <section className="page premium-faq" aria-labelledby="premium-faq-title">
        <h2 id="premium-faq-title" className="center">
          Questions about Premium
        </h2>
        <ul className="faq-list">
          {FAQ.map((item, i) => {
            const open = openFaq === i;
            return (
              <li key={item.q} className={`card premium-faq-item ${open ? 'open' : ''}`}>
                <h3 className="premium-faq-question">
                  <button
                    type="button"
                    id={`premium-faq-${i}`}
                    aria-expanded={open}
                    aria-controls={`premium-faq-${i}-answer`}
                    onClick={() => setOpenFaq(open ? null : i)}
                  >
                    <span>{item.q}</span>
                    <span aria-hidden="true">{open ? '−' : '+'}</span>
                  </button>
                </h3>
                <div id={`premium-faq-${i}-answer`} role="region" aria-labelledby={`premium-faq-${i}`} hidden={!open}>
                  <p className="muted">{item.a}</p>
                </div>
              </li>
            );
          })}
        </ul>
      </section>

      <section className="cta" aria-labelledby="premium-cta-title">
        <h2 id="premium-cta-title">Start your {TRIAL_DAYS}-day free trial</h2>
        <p>No commitment. Cancel any time.</p>
        <div className="row" style={{ justifyContent: 'center' }}>
          <button type="button" className="btn btn-light" onClick={subscriptionsDisabled}>
            Start Free Trial
          </button>
          <button type="button" className="btn btn-outline-light" onClick={contactDisabled}>
            Contact Sales
          </button>
        </div>
        <div className="payments" aria-label="Accepted payment methods">
          <p className="small">Secure payments (coming soon)</p>
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

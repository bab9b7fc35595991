import type { ReactNode } from 'react';
import { FormattedMessage, useIntl, type MessageDescriptor } from 'react-intl';
import { Link } from 'react-router-dom';
import { IconCards, SimulatedTestimonials } from '@/common/marketing';
import { VOICE_DEMO_POINTS, VOICE_TEXTS } from '@/common/voice-texts';
import { defineMessages } from '@/i18n';
import { VoiceDemo } from './VoiceDemo';
import './landing.css';
import { ChartBar, Compass, EyeOff, MapPin, Megaphone, Mic, Route, Siren, Users, Video } from 'lucide-react';

interface Card {
  icon: ReactNode;
  title: MessageDescriptor;
  text: MessageDescriptor;
}

const FEATURE_TEXTS = defineMessages({
  detectionTitle: { id: 'landing.features.detection.title', defaultMessage: 'Live Detection' },
  detectionText: {
    id: 'landing.features.detection.text',
    defaultMessage: 'Computer vision watches highway camera feeds around the clock and spots wrong-way drivers the moment they enter the road.',
  },
  alertsTitle: { id: 'landing.features.alerts.title', defaultMessage: 'Instant Alerts' },
  alertsText: {
    id: 'landing.features.alerts.text',
    defaultMessage: 'Push, voice and SMS alerts reach nearby drivers, emergency services and traffic authorities within seconds.',
  },
  dashboardTitle: { id: 'landing.features.dashboard.title', defaultMessage: 'Detailed Dashboard' },
  dashboardText: {
    id: 'landing.features.dashboard.text',
    defaultMessage: 'Live maps, traffic cameras, your reports and your community progress in one place.',
  },
  intelligenceTitle: { id: 'landing.features.intelligence.title', defaultMessage: 'Crisis Intelligence' },
  intelligenceText: {
    id: 'landing.features.intelligence.text',
    defaultMessage: 'Authorities receive location-verified incident data and camera snapshots to respond faster.',
  },
});

const FEATURES: Card[] = [
  { icon: <Video size={28} />, title: FEATURE_TEXTS.detectionTitle, text: FEATURE_TEXTS.detectionText },
  { icon: <Megaphone size={28} />, title: FEATURE_TEXTS.alertsTitle, text: FEATURE_TEXTS.alertsText },
  { icon: <ChartBar size={28} />, title: FEATURE_TEXTS.dashboardTitle, text: FEATURE_TEXTS.dashboardText },
  { icon: <Compass size={28} />, title: FEATURE_TEXTS.intelligenceTitle, text: FEATURE_TEXTS.intelligenceText },
];

const TOOL_TEXTS = defineMessages({
  quickAlertTitle: { id: 'landing.tools.quickAlert.title', defaultMessage: 'Quick Alert Button' },
  quickAlertText: { id: 'landing.tools.quickAlert.text', defaultMessage: 'Raise an alert in one tap when every second counts.' },
  recordingTitle: { id: 'landing.tools.recording.title', defaultMessage: 'Stealth Recording' },
  recordingText: { id: 'landing.tools.recording.text', defaultMessage: 'Capture audio or video discreetly as evidence.' },
  locationTitle: { id: 'landing.tools.location.title', defaultMessage: 'Precise Location' },
  locationText: { id: 'landing.tools.location.text', defaultMessage: 'Pinpoint the incident from your device or on the map.' },
  witnessTitle: { id: 'landing.tools.witness.title', defaultMessage: 'Witness Network' },
  witnessText: { id: 'landing.tools.witness.text', defaultMessage: 'Nearby members can confirm what they saw.' },
  safeRouteTitle: { id: 'landing.tools.safeRoute.title', defaultMessage: 'Safe-Route Suggestions' },
  safeRouteText: { id: 'landing.tools.safeRoute.text', defaultMessage: 'Get routed around danger zones and closures.' },
  anonymousTitle: { id: 'landing.tools.anonymous.title', defaultMessage: 'Anonymous Tips' },
  anonymousText: { id: 'landing.tools.anonymous.text', defaultMessage: 'Share what you know without revealing who you are.' },
});

const REPORTING_TOOLS: Card[] = [
  { icon: <Siren size={24} />, title: TOOL_TEXTS.quickAlertTitle, text: TOOL_TEXTS.quickAlertText },
  { icon: <Mic size={24} />, title: TOOL_TEXTS.recordingTitle, text: TOOL_TEXTS.recordingText },
  { icon: <MapPin size={24} />, title: TOOL_TEXTS.locationTitle, text: TOOL_TEXTS.locationText },
  { icon: <Users size={24} />, title: TOOL_TEXTS.witnessTitle, text: TOOL_TEXTS.witnessText },
  { icon: <Route size={24} />, title: TOOL_TEXTS.safeRouteTitle, text: TOOL_TEXTS.safeRouteText },
  { icon: <EyeOff size={24} />, title: TOOL_TEXTS.anonymousTitle, text: TOOL_TEXTS.anonymousText },
];

const TESTIMONIAL_TEXTS = defineMessages({
  commuterQuote: {
    id: 'landing.testimonials.commuter.quote',
    defaultMessage:
      'The alert came through while I was merging onto the I-10. Thirty seconds later a car came the wrong way down the exit ramp. I was already in the right lane.',
  },
  commuterRole: { id: 'landing.testimonials.commuter.role', defaultMessage: 'Daily commuter, Phoenix' },
  patrolQuote: {
    id: 'landing.testimonials.patrol.quote',
    defaultMessage: 'Having camera snapshots and an exact location before we roll means our units know what they are driving into.',
  },
  patrolRole: { id: 'landing.testimonials.patrol.role', defaultMessage: 'Highway patrol' },
  parentQuote: {
    id: 'landing.testimonials.parent.quote',
    defaultMessage: 'Our whole family is on it. My teenage son drives at night and I sleep better knowing he gets warned.',
  },
  parentRole: { id: 'landing.testimonials.parent.role', defaultMessage: 'Parent, Scottsdale' },
});

/** Spec: three testimonials, marked as simulated. The names are people's names: they stay as they are. */
const TESTIMONIALS = [
  { quote: TESTIMONIAL_TEXTS.commuterQuote, name: 'Maria G.', role: TESTIMONIAL_TEXTS.commuterRole },
  { quote: TESTIMONIAL_TEXTS.patrolQuote, name: 'Lt. James R.', role: TESTIMONIAL_TEXTS.patrolRole },
  { quote: TESTIMONIAL_TEXTS.parentQuote, name: 'Dana K.', role: TESTIMONIAL_TEXTS.parentRole },
] as const;

const STEP_TEXTS = defineMessages({
  detectTitle: { id: 'landing.steps.detect.title', defaultMessage: 'Detect' },
  detectText: { id: 'landing.steps.detect.text', defaultMessage: 'Cameras and community reports flag a danger such as a wrong-way driver.' },
  alertTitle: { id: 'landing.steps.alert.title', defaultMessage: 'Alert' },
  alertText: { id: 'landing.steps.alert.text', defaultMessage: 'Beacon verifies the location and warns everyone in the area by push, voice and SMS.' },
  respondTitle: { id: 'landing.steps.respond.title', defaultMessage: 'Respond' },
  respondText: {
    id: 'landing.steps.respond.text',
    defaultMessage: 'Drivers move to safety while emergency services and traffic authorities act on verified data.',
  },
});

/** The step number stands where the other cards have their icon. */
const STEPS: Card[] = [
  { icon: 1, title: STEP_TEXTS.detectTitle, text: STEP_TEXTS.detectText },
  { icon: 2, title: STEP_TEXTS.alertTitle, text: STEP_TEXTS.alertText },
  { icon: 3, title: STEP_TEXTS.respondTitle, text: STEP_TEXTS.respondText },
];

/** The read-aloud promise and what a closed browser cannot do, as one paragraph: languages join sentences their own way. */
const VOICE_NOTE = defineMessages({
  inAppAndClosed: { id: 'landing.demo.voiceNote', defaultMessage: '{inApp} {closedApp}' },
});

export function LandingPage() {
  const intl = useIntl();
  const cards = (items: Card[]) => items.map((c) => ({ icon: c.icon, title: intl.formatMessage(c.title), text: intl.formatMessage(c.text) }));
  const testimonials = TESTIMONIALS.map((t) => ({ quote: intl.formatMessage(t.quote), name: t.name, role: intl.formatMessage(t.role) }));
  return (
    <main className="landing">
      <section className="hero" aria-labelledby="hero-title">
        <div className="hero-inner">
          <span className="badge badge-live">
            <FormattedMessage id="landing.hero.badge" defaultMessage="Public safety alerts" />
          </span>
          <h1 id="hero-title">
            <FormattedMessage id="landing.hero.title" defaultMessage="Warned in seconds about wrong-way drivers and dangers near you" />
          </h1>
          <p className="hero-lead">
            <FormattedMessage
              id="landing.hero.lead"
              defaultMessage="Beacon applies computer vision to highway camera feeds to detect wrong-way drivers, then sends push, voice and SMS alerts to nearby drivers, emergency services and traffic authorities."
            />
          </p>
          <div className="row hero-actions">
            <Link to="/signup" className="btn btn-light">
              <FormattedMessage id="landing.hero.viewDemo" defaultMessage="View Demo" />
            </Link>
            <Link to="/login" className="btn btn-outline-light">
              <FormattedMessage id="landing.hero.getAlerts" defaultMessage="Get Alerts" />
            </Link>
          </div>
        </div>
      </section>

      <section className="landing-section" aria-labelledby="features-title">
        <h2 id="features-title" className="section-title">
          <FormattedMessage id="landing.features.title" defaultMessage="Everything you need to stay ahead of danger" />
        </h2>
        <IconCards items={cards(FEATURES)} listClassName="grid-4" cardClassName="feature-card" iconClassName="feature-icon" />
      </section>

      <section className="landing-section alt" aria-labelledby="tools-title">
        <h2 id="tools-title" className="section-title">
          <FormattedMessage id="landing.tools.title" defaultMessage="Reporting tools in your pocket" />
        </h2>
        <IconCards items={cards(REPORTING_TOOLS)} listClassName="grid-3" cardClassName="tool-card" iconClassName="tool-icon" iconBeside />
      </section>

      <section className="landing-section" aria-labelledby="how-title">
        <h2 id="how-title" className="section-title">
          <FormattedMessage id="landing.steps.title" defaultMessage="How It Works" />
        </h2>
        <IconCards items={cards(STEPS)} listClassName="steps" cardClassName="step" iconClassName="step-number" ordered />
      </section>

      <section className="landing-section alt" aria-labelledby="demo-title">
        <div className="demo">
          <div>
            <h2 id="demo-title">
              <FormattedMessage id="landing.demo.title" defaultMessage="See a live alert" />
            </h2>
            <p className="muted">{intl.formatMessage(VOICE_TEXTS.demoLead)}</p>
            <ul className="demo-points">
              {VOICE_DEMO_POINTS.map((point) => (
                <li key={point.id}>{intl.formatMessage(point)}</li>
              ))}
            </ul>
            <p className="muted small">
              {intl.formatMessage(VOICE_NOTE.inAppAndClosed, {
                inApp: intl.formatMessage(VOICE_TEXTS.inApp),
                closedApp: intl.formatMessage(VOICE_TEXTS.closedApp),
              })}
            </p>
            <p className="muted small">{intl.formatMessage(VOICE_TEXTS.call)}</p>
          </div>
          <VoiceDemo />
        </div>
      </section>

      <section className="landing-section" aria-labelledby="testimonials-title">
        <h2 id="testimonials-title" className="section-title">
          <FormattedMessage id="landing.testimonials.title" defaultMessage="What people say" />
        </h2>
        <SimulatedTestimonials items={testimonials} />
      </section>

      <section className="cta" aria-labelledby="cta-title">
        <h2 id="cta-title">
          <FormattedMessage id="landing.cta.title" defaultMessage="Ready to drive safer?" />
        </h2>
        <p>
          <FormattedMessage id="landing.cta.text" defaultMessage="Join Beacon for free and get alerts about dangers on your route." />
        </p>
        <Link to="/signup" className="btn btn-light">
          <FormattedMessage id="landing.cta.createAccount" defaultMessage="Create Free Account" />
        </Link>
      </section>
    </main>
  );
}

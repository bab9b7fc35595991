import { Link } from 'react-router-dom';
import { IconCards, SimulatedTestimonials } from '@/common/marketing';
import { VOICE_TEXTS } from '@/common/voice-texts';
import { VoiceDemo } from './VoiceDemo';
import './landing.css';
import { ChartBar, Compass, EyeOff, MapPin, Megaphone, Mic, Route, Siren, Users, Video } from 'lucide-react';

const FEATURES = [
  {
    icon: <Video size={28} />,
    title: 'Live Detection',
    text: 'Computer vision watches highway camera feeds around the clock and spots wrong-way drivers the moment they enter the road.',
  },
  {
    icon: <Megaphone size={28} />,
    title: 'Instant Alerts',
    text: 'Push, voice and SMS alerts reach nearby drivers, emergency services and traffic authorities within seconds.',
  },
  { icon: <ChartBar size={28} />, title: 'Detailed Dashboard', text: 'Live maps, traffic cameras, your reports and your community progress in one place.' },
  {
    icon: <Compass size={28} />,
    title: 'Crisis Intelligence',
    text: 'Authorities receive location-verified incident data and camera snapshots to respond faster.',
  },
] as const;

const REPORTING_TOOLS = [
  { icon: <Siren size={24} />, title: 'Quick Alert Button', text: 'Raise an alert in one tap when every second counts.' },
  { icon: <Mic size={24} />, title: 'Stealth Recording', text: 'Capture audio or video discreetly as evidence.' },
  { icon: <MapPin size={24} />, title: 'Precise Location', text: 'Pinpoint the incident from your device or on the map.' },
  { icon: <Users size={24} />, title: 'Witness Network', text: 'Nearby members can confirm what they saw.' },
  { icon: <Route size={24} />, title: 'Safe-Route Suggestions', text: 'Get routed around danger zones and closures.' },
  { icon: <EyeOff size={24} />, title: 'Anonymous Tips', text: 'Share what you know without revealing who you are.' },
] as const;

/** Spec: three testimonials, marked as simulated. */
const TESTIMONIALS = [
  {
    quote:
      'The alert came through while I was merging onto the I-10. Thirty seconds later a car came the wrong way down the exit ramp. I was already in the right lane.',
    name: 'Maria G.',
    role: 'Daily commuter, Phoenix',
  },
  {
    quote: 'Having camera snapshots and an exact location before we roll means our units know what they are driving into.',
    name: 'Lt. James R.',
    role: 'Highway patrol',
  },
  {
    quote: 'Our whole family is on it. My teenage son drives at night and I sleep better knowing he gets warned.',
    name: 'Dana K.',
    role: 'Parent, Scottsdale',
  },
] as const;

/** The step number stands where the other cards have their icon. */
const STEPS = [
  { icon: 1, title: 'Detect', text: 'Cameras and community reports flag a danger such as a wrong-way driver.' },
  { icon: 2, title: 'Alert', text: 'Beacon verifies the location and warns everyone in the area by push, voice and SMS.' },
  { icon: 3, title: 'Respond', text: 'Drivers move to safety while emergency services and traffic authorities act on verified data.' },
] as const;

export function LandingPage() {
  return (
    <main className="landing">
      <section className="hero" aria-labelledby="hero-title">
        <div className="hero-inner">
          <span className="badge badge-live">Public safety alerts</span>
          <h1 id="hero-title">Warned in seconds about wrong-way drivers and dangers near you</h1>
          <p className="hero-lead">
            Beacon applies computer vision to highway camera feeds to detect wrong-way drivers, then sends push, voice and SMS alerts to nearby drivers,
            emergency services and traffic authorities.
          </p>
          <div className="row hero-actions">
            <Link to="/signup" className="btn btn-light">
              View Demo
            </Link>
            <Link to="/login" className="btn btn-outline-light">
              Get Alerts
            </Link>
          </div>
        </div>
      </section>

      <section className="landing-section" aria-labelledby="features-title">
        <h2 id="features-title" className="section-title">
          Everything you need to stay ahead of danger
        </h2>
        <IconCards items={FEATURES} listClassName="grid-4" cardClassName="feature-card" iconClassName="feature-icon" />
      </section>

      <section className="landing-section alt" aria-labelledby="tools-title">
        <h2 id="tools-title" className="section-title">
          Reporting tools in your pocket
        </h2>
        <IconCards items={REPORTING_TOOLS} listClassName="grid-3" cardClassName="tool-card" iconClassName="tool-icon" iconBeside />
      </section>

      <section className="landing-section" aria-labelledby="how-title">
        <h2 id="how-title" className="section-title">
          How It Works
        </h2>
        <IconCards items={STEPS} listClassName="steps" cardClassName="step" iconClassName="step-number" ordered />
      </section>

      <section className="landing-section alt" aria-labelledby="demo-title">
        <div className="demo">
          <div>
            <h2 id="demo-title">See a live alert</h2>
            <p className="muted">{VOICE_TEXTS.demoLead}</p>
            <ul className="demo-points">
              {VOICE_TEXTS.demoPoints.map((point) => (
                <li key={point}>{point}</li>
              ))}
            </ul>
            <p className="muted small">
              {VOICE_TEXTS.inApp} {VOICE_TEXTS.closedApp}
            </p>
            <p className="muted small">{VOICE_TEXTS.call}</p>
          </div>
          <VoiceDemo />
        </div>
      </section>

      <section className="landing-section" aria-labelledby="testimonials-title">
        <h2 id="testimonials-title" className="section-title">
          What people say
        </h2>
        <SimulatedTestimonials items={TESTIMONIALS} />
      </section>

      <section className="cta" aria-labelledby="cta-title">
        <h2 id="cta-title">Ready to drive safer?</h2>
        <p>Join Beacon for free and get alerts about dangers on your route.</p>
        <Link to="/signup" className="btn btn-light">
          Create Free Account
        </Link>
      </section>
    </main>
  );
}

import { defineMessages } from '@/i18n';

/**
 * What "voice alerts" means, said once for the public pages (landing, FAQ, Premium), so every page promises the same
 * thing and exactly what Beacon does:
 * - in the browser, with the Voice alerts setting on (it is on by default, on every plan), the open app reads each new
 *   alert, update and all-clear aloud, in the alert's language, on whatever page is open, once per alert version
 *   (one tab speaks, not every tab); a browser cannot speak for a closed app;
 * - the phone-call channel adds a call: when an administrator sends an alert by voice call, Beacon rings the person's
 *   phone number (the one SMS uses), reads the alert and asks for a key press (1 safe, 2 help).
 * Messages: each page formats them in the reader's language (intl.formatMessage(VOICE_TEXTS.inApp)).
 */
export const VOICE_TEXTS = defineMessages({
  /** The read-aloud in the open app. */
  inApp: {
    id: 'landing.voice.inApp',
    defaultMessage:
      'With voice alerts on, the open Beacon app reads every new alert, update and all-clear for your area aloud, in the alert’s language, on whichever page you are on, once per alert (one tab speaks, not every tab).',
  },
  /** What a browser cannot do, said where read-aloud is promised. */
  closedApp: {
    id: 'landing.voice.closedApp',
    defaultMessage:
      'A browser can only speak while Beacon is open in it; when it is closed, push notifications (and SMS or phone calls, where you turned them on) reach you.',
  },
  /** The phone-call channel. */
  call: {
    id: 'landing.voice.call',
    defaultMessage:
      'Phone calls add a warning that needs no open app: with voice alerts on and a phone number saved, when an administrator sends an alert by voice call, Beacon calls you, reads the alert twice in your language, and you answer by pressing 1 if you are safe or 2 if you need help.',
  },
  /** The landing page's demo, above the sample. */
  demoLead: {
    id: 'landing.voice.demoLead',
    defaultMessage: 'This is what a wrong-way driver alert looks like. Press play to hear it read aloud, the way Beacon reads alerts while the app is open.',
  },
  /** The landing demo's three points. */
  demoPointAnyPage: { id: 'landing.voice.demoPointAnyPage', defaultMessage: 'Read aloud in the open app, on any page' },
  demoPointLanguage: { id: 'landing.voice.demoPointLanguage', defaultMessage: 'In the alert’s own language' },
  demoPointCall: { id: 'landing.voice.demoPointCall', defaultMessage: 'A phone call when an administrator sends by voice' },
  /** Premium's feature card: read-aloud is no paid extra. */
  everyPlanTitle: { id: 'landing.voice.everyPlanTitle', defaultMessage: 'Voice Alerts on Every Plan' },
  everyPlan: {
    id: 'landing.voice.everyPlan',
    defaultMessage: 'Read-aloud alerts in the open app and phone calls for alerts sent by voice come with the Free plan too: Premium does not charge for them.',
  },
  /** The Free plan's line. */
  freePlanFeature: { id: 'landing.voice.freePlanFeature', defaultMessage: 'Voice alerts: read aloud in the app, calls when sent by voice' },
});

/** The landing demo's points, in order. */
export const VOICE_DEMO_POINTS = [VOICE_TEXTS.demoPointAnyPage, VOICE_TEXTS.demoPointLanguage, VOICE_TEXTS.demoPointCall];

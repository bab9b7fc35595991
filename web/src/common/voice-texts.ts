/**
 * What "voice alerts" means, said once for the public pages (landing, FAQ, Premium), so every page promises the same
 * thing and exactly what Beacon does:
 * - in the browser, with the Voice alerts setting on (it is on by default, on every plan), the open app reads each new
 *   alert, update and all-clear aloud, in the alert's language, on whatever page is open, once per alert version
 *   (one tab speaks, not every tab); a browser cannot speak for a closed app;
 * - the phone-call channel adds a call: when an administrator sends an alert by voice call, Beacon rings the person's
 *   phone number (the one SMS uses), reads the alert and asks for a key press (1 safe, 2 help).
 */
export const VOICE_TEXTS = {
  /** The read-aloud in the open app. */
  inApp:
    'With voice alerts on, the open Beacon app reads every new alert, update and all-clear for your area aloud, in the alert’s language, on whichever page you are on, once per alert (one tab speaks, not every tab).',
  /** What a browser cannot do, said where read-aloud is promised. */
  closedApp:
    'A browser can only speak while Beacon is open in it; when it is closed, push notifications (and SMS or phone calls, where you turned them on) reach you.',
  /** The phone-call channel. */
  call: 'Phone calls add a warning that needs no open app: with voice alerts on and a phone number saved, when an administrator sends an alert by voice call, Beacon calls you, reads the alert twice in your language, and you answer by pressing 1 if you are safe or 2 if you need help.',
  /** The landing page's demo, above the sample. */
  demoLead: 'This is what a wrong-way driver alert looks like. Press play to hear it read aloud, the way Beacon reads alerts while the app is open.',
  /** The landing demo's three points. */
  demoPoints: ['Read aloud in the open app, on any page', 'In the alert’s own language', 'A phone call when an administrator sends by voice'],
  /** Premium's feature card: read-aloud is no paid extra. */
  everyPlanTitle: 'Voice Alerts on Every Plan',
  everyPlan: 'Read-aloud alerts in the open app and phone calls for alerts sent by voice come with the Free plan too: Premium does not charge for them.',
  /** The Free plan's line. */
  freePlanFeature: 'Voice alerts: read aloud in the app, calls when sent by voice',
} as const;

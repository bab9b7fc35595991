export const FAQ_CATEGORIES = ['safety', 'plans', 'technical', 'privacy'] as const;
export type FaqCategory = (typeof FAQ_CATEGORIES)[number];

export const FAQ_CATEGORY_LABELS: Record<FaqCategory, string> = {
  safety: 'Safety',
  plans: 'Plans & Pricing',
  technical: 'Technical',
  privacy: 'Privacy',
};

import { VOICE_TEXTS } from '@/common/voice-texts';

export interface FaqItem {
  /** Also the URL hash of the item: /faq#<id> opens it. */
  id: string;
  category: FaqCategory;
  question: string;
  answer: string;
}

/** The public FAQ: 16 questions (spec). */
export const FAQ_ITEMS: FaqItem[] = [
  {
    id: 'what-is-beacon',
    category: 'safety',
    question: 'What is Beacon?',
    answer:
      'Beacon is a public safety alert system. It watches highway camera feeds for wrong-way drivers and other dangers and warns nearby drivers, emergency services and traffic authorities within seconds by push notification, SMS, e-mail and voice: read aloud in the open app, or a phone call.',
  },
  {
    id: 'wrong-way-detection',
    category: 'safety',
    question: 'How does Beacon detect wrong-way drivers?',
    answer:
      'Computer vision runs on highway camera feeds and flags vehicles moving against the flow of traffic. A detection is checked against the camera location and direction of travel before an alert goes out, and authorities receive the location-verified data with camera snapshots.',
  },
  {
    id: 'receive-alert',
    category: 'safety',
    question: 'What should I do when I receive an alert?',
    answer:
      'Stay calm and follow the instructions in the alert. For a wrong-way driver, move to the right lane, slow down and watch for oncoming headlights. Never handle your phone while driving: if Beacon is open, voice alerts read the warning aloud for you; if it is closed, pull over safely before you read a notification. If you are in immediate danger, call 911.',
  },
  {
    id: 'report-incident',
    category: 'safety',
    question: 'How do I report an incident?',
    answer:
      'Sign in and open Report Incident from your dashboard. Choose the type, describe what you saw, set the location (detected from your device or picked on the map) and add a photo if you have one. Admins review reports, and verified reports appear on the public safety map. False reports may result in account suspension.',
  },
  {
    id: 'replace-911',
    category: 'safety',
    question: 'Does Beacon replace calling 911?',
    answer:
      'No. Beacon adds early warning, it does not replace emergency services. If you or someone else is in danger, call 911 first. The dashboard has a one-tap 911 button for this.',
  },
  {
    id: 'free-plan',
    category: 'plans',
    question: 'What does the Free plan include?',
    answer:
      'The Free plan includes real-time alerts within a 10-mile radius, 7 days of alert history, the public safety map and community access. It costs $0 and always will.',
  },
  {
    id: 'premium-plans',
    category: 'plans',
    question: 'What do the Single User and Family/Team plans add?',
    answer:
      'Single User ($10 per month) extends your alert radius to 50 miles, keeps 90 days of history and includes 100+ live traffic cameras. Family/Team ($30 per month for up to 5 users, $10 per month for each extra user) adds unlimited history, a 100-mile radius and shared alerts for everyone on the plan.',
  },
  {
    id: 'free-trial',
    category: 'plans',
    question: 'Is there a free trial or a money-back guarantee?',
    answer:
      'Paid plans come with a 14-day free trial and a 30-day money-back guarantee. Paying yearly saves 20%. Premium subscriptions are currently disabled while we finish the payment integration, so everyone is on the Free plan for now.',
  },
  {
    id: 'cancel-plan',
    category: 'plans',
    question: 'Can I cancel or change my plan at any time?',
    answer:
      'Yes. Once paid plans are available you will be able to upgrade, downgrade or cancel at any time from your profile, and a cancellation takes effect at the end of the billing period.',
  },
  {
    id: 'supported-devices',
    category: 'technical',
    question: 'Which devices and browsers are supported?',
    answer:
      'Beacon works in current versions of Chrome, Edge, Firefox and Safari on desktop and mobile. Add it to your home screen for an app-like experience. Push notifications need a browser that supports web push.',
  },
  {
    id: 'enable-notifications',
    category: 'technical',
    question: 'How do I turn on notifications?',
    answer: `Allow notifications when your browser asks, then choose your channels on the Alert Management screen and in Profile Settings. You can also set your alert radius, quiet hours and which alert types you receive. Voice alerts are on unless you turn them off. ${VOICE_TEXTS.inApp} ${VOICE_TEXTS.closedApp} ${VOICE_TEXTS.call}`,
  },
  {
    id: 'alerts-not-arriving',
    category: 'technical',
    question: 'Why am I not receiving alerts?',
    answer:
      'Check that notifications are allowed for Beacon in your browser and device settings, that push is switched on in your preferences, and that quiet hours are not active. Alerts only reach you when you are inside the alert area and the alert type is one you follow.',
  },
  {
    id: 'location-accuracy',
    category: 'technical',
    question: 'How accurate is my location?',
    answer:
      'Beacon uses your device’s location service with high accuracy when you allow it. When you do not, you can pick a location on the map instead; alerts then use the location you chose.',
  },
  {
    id: 'data-collected',
    category: 'privacy',
    question: 'What data does Beacon collect?',
    answer:
      'Your e-mail address, the preferences you set, the reports and posts you create and, if you allow it, your location for nearby alerts. We do not sell your data.',
  },
  {
    id: 'location-sharing',
    category: 'privacy',
    question: 'Is my location shared with anyone?',
    answer:
      'No. Your location is used only to decide which alerts concern you. Reports you submit show the incident location, never your identity, on the public map.',
  },
  {
    id: 'delete-account',
    category: 'privacy',
    question: 'How do I delete my account and data?',
    answer:
      'Contact our support team from the Contact page and we will delete your account and personal data. Anonymous, aggregated incident statistics may be kept to improve road safety.',
  },
];

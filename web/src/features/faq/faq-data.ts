import type { IntlShape, MessageDescriptor } from 'react-intl';
import { VOICE_TEXTS } from '@/common/voice-texts';
import { defineMessages } from '@/i18n';

export const FAQ_CATEGORIES = ['safety', 'plans', 'technical', 'privacy'] as const;
export type FaqCategory = (typeof FAQ_CATEGORIES)[number];

/** The category chips and badges; `all` is the chip that shows every category. */
export const FAQ_CATEGORY_LABELS = defineMessages({
  all: { id: 'faq.category.all', defaultMessage: 'All' },
  safety: { id: 'faq.category.safety', defaultMessage: 'Safety' },
  plans: { id: 'faq.category.plans', defaultMessage: 'Plans & Pricing' },
  technical: { id: 'faq.category.technical', defaultMessage: 'Technical' },
  privacy: { id: 'faq.category.privacy', defaultMessage: 'Privacy' },
});

export interface FaqItem {
  /** Also the URL hash of the item: /faq#<id> opens it. */
  id: string;
  category: FaqCategory;
  question: MessageDescriptor;
  answer: MessageDescriptor;
  /** Messages the answer places inside itself ({name}), each formatted in the reader's language first. */
  answerParts?: Record<string, MessageDescriptor>;
}

/** An item's question and answer in the reader's language: what the FAQ shows, searches and the legal pages quote. */
export interface FaqText {
  question: string;
  answer: string;
}

export function faqText(item: FaqItem, intl: IntlShape): FaqText {
  const parts = Object.fromEntries(Object.entries(item.answerParts ?? {}).map(([name, message]) => [name, intl.formatMessage(message)]));
  return { question: intl.formatMessage(item.question), answer: intl.formatMessage(item.answer, parts) };
}

/** The public FAQ: 16 questions (spec). */
export const FAQ_ITEMS: FaqItem[] = [
  {
    id: 'what-is-beacon',
    category: 'safety',
    ...defineMessages({
      question: { id: 'faq.whatIsBeacon.question', defaultMessage: 'What is Beacon?' },
      answer: {
        id: 'faq.whatIsBeacon.answer',
        defaultMessage:
          'Beacon is a public safety alert system. It watches highway camera feeds for wrong-way drivers and other dangers and warns nearby drivers, emergency services and traffic authorities within seconds by push notification, SMS, e-mail and voice: read aloud in the open app, or a phone call.',
      },
    }),
  },
  {
    id: 'wrong-way-detection',
    category: 'safety',
    ...defineMessages({
      question: { id: 'faq.wrongWayDetection.question', defaultMessage: 'How does Beacon detect wrong-way drivers?' },
      answer: {
        id: 'faq.wrongWayDetection.answer',
        defaultMessage:
          'Computer vision runs on highway camera feeds and flags vehicles moving against the flow of traffic. A detection is checked against the camera location and direction of travel before an alert goes out, and authorities receive the location-verified data with camera snapshots.',
      },
    }),
  },
  {
    id: 'receive-alert',
    category: 'safety',
    ...defineMessages({
      question: { id: 'faq.receiveAlert.question', defaultMessage: 'What should I do when I receive an alert?' },
      answer: {
        id: 'faq.receiveAlert.answer',
        defaultMessage:
          'Stay calm and follow the instructions in the alert. For a wrong-way driver, move to the right lane, slow down and watch for oncoming headlights. Never handle your phone while driving: if Beacon is open, voice alerts read the warning aloud for you; if it is closed, pull over safely before you read a notification. If you are in immediate danger, call 911.',
      },
    }),
  },
  {
    id: 'report-incident',
    category: 'safety',
    ...defineMessages({
      question: { id: 'faq.reportIncident.question', defaultMessage: 'How do I report an incident?' },
      answer: {
        id: 'faq.reportIncident.answer',
        defaultMessage:
          'Sign in and open Report Incident from your dashboard. Choose the type, describe what you saw, set the location (detected from your device or picked on the map) and add a photo if you have one. Admins review reports, and verified reports appear on the public safety map. False reports may result in account suspension.',
      },
    }),
  },
  {
    id: 'replace-911',
    category: 'safety',
    ...defineMessages({
      question: { id: 'faq.replace911.question', defaultMessage: 'Does Beacon replace calling 911?' },
      answer: {
        id: 'faq.replace911.answer',
        defaultMessage:
          'No. Beacon adds early warning, it does not replace emergency services. If you or someone else is in danger, call 911 first. The dashboard has a one-tap 911 button for this.',
      },
    }),
  },
  {
    id: 'free-plan',
    category: 'plans',
    ...defineMessages({
      question: { id: 'faq.freePlan.question', defaultMessage: 'What does the Free plan include?' },
      answer: {
        id: 'faq.freePlan.answer',
        defaultMessage:
          'The Free plan includes real-time alerts within a 10-mile radius, 7 days of alert history, the public safety map and community access. It costs $0 and always will.',
      },
    }),
  },
  {
    id: 'premium-plans',
    category: 'plans',
    ...defineMessages({
      question: { id: 'faq.premiumPlans.question', defaultMessage: 'What do the Single User and Family/Team plans add?' },
      answer: {
        id: 'faq.premiumPlans.answer',
        defaultMessage:
          'Single User ($10 per month) extends your alert radius to 50 miles, keeps 90 days of history and includes 100+ live traffic cameras. Family/Team ($30 per month for up to 5 users, $10 per month for each extra user) adds unlimited history, a 100-mile radius and shared alerts for everyone on the plan.',
      },
    }),
  },
  {
    id: 'free-trial',
    category: 'plans',
    ...defineMessages({
      question: { id: 'faq.freeTrial.question', defaultMessage: 'Is there a free trial or a money-back guarantee?' },
      answer: {
        id: 'faq.freeTrial.answer',
        defaultMessage:
          'Paid plans come with a 14-day free trial and a 30-day money-back guarantee. Paying yearly saves 20%. Premium subscriptions are currently disabled while we finish the payment integration, so everyone is on the Free plan for now.',
      },
    }),
  },
  {
    id: 'cancel-plan',
    category: 'plans',
    ...defineMessages({
      question: { id: 'faq.cancelPlan.question', defaultMessage: 'Can I cancel or change my plan at any time?' },
      answer: {
        id: 'faq.cancelPlan.answer',
        defaultMessage:
          'Yes. Once paid plans are available you will be able to upgrade, downgrade or cancel at any time from your profile, and a cancellation takes effect at the end of the billing period.',
      },
    }),
  },
  {
    id: 'supported-devices',
    category: 'technical',
    ...defineMessages({
      question: { id: 'faq.supportedDevices.question', defaultMessage: 'Which devices and browsers are supported?' },
      answer: {
        id: 'faq.supportedDevices.answer',
        defaultMessage:
          'Beacon works in current versions of Chrome, Edge, Firefox and Safari on desktop and mobile. Add it to your home screen for an app-like experience. Push notifications need a browser that supports web push.',
      },
    }),
  },
  {
    id: 'enable-notifications',
    category: 'technical',
    ...defineMessages({
      question: { id: 'faq.enableNotifications.question', defaultMessage: 'How do I turn on notifications?' },
      answer: {
        id: 'faq.enableNotifications.answer',
        description: 'inApp, closedApp and call are the landing page’s sentences about voice alerts (landing.voice.*), in the same language.',
        defaultMessage:
          'Allow notifications when your browser asks, then choose your channels on the Alert Management screen and in Profile Settings. You can also set your alert radius, quiet hours and which alert types you receive. Voice alerts are on unless you turn them off. {inApp} {closedApp} {call}',
      },
    }),
    answerParts: { inApp: VOICE_TEXTS.inApp, closedApp: VOICE_TEXTS.closedApp, call: VOICE_TEXTS.call },
  },
  {
    id: 'alerts-not-arriving',
    category: 'technical',
    ...defineMessages({
      question: { id: 'faq.alertsNotArriving.question', defaultMessage: 'Why am I not receiving alerts?' },
      answer: {
        id: 'faq.alertsNotArriving.answer',
        defaultMessage:
          'Check that notifications are allowed for Beacon in your browser and device settings, that push is switched on in your preferences, and that quiet hours are not active. Alerts only reach you when you are inside the alert area and the alert type is one you follow.',
      },
    }),
  },
  {
    id: 'location-accuracy',
    category: 'technical',
    ...defineMessages({
      question: { id: 'faq.locationAccuracy.question', defaultMessage: 'How accurate is my location?' },
      answer: {
        id: 'faq.locationAccuracy.answer',
        defaultMessage:
          'Beacon uses your device’s location service with high accuracy when you allow it. When you do not, you can pick a location on the map instead; alerts then use the location you chose.',
      },
    }),
  },
  {
    id: 'data-collected',
    category: 'privacy',
    ...defineMessages({
      question: { id: 'faq.dataCollected.question', defaultMessage: 'What data does Beacon collect?' },
      answer: {
        id: 'faq.dataCollected.answer',
        defaultMessage:
          'Your e-mail address, the preferences you set, the reports and posts you create and, if you allow it, your location for nearby alerts. We do not sell your data.',
      },
    }),
  },
  {
    id: 'location-sharing',
    category: 'privacy',
    ...defineMessages({
      question: { id: 'faq.locationSharing.question', defaultMessage: 'Is my location shared with anyone?' },
      answer: {
        id: 'faq.locationSharing.answer',
        defaultMessage:
          'No. Your location is used only to decide which alerts concern you. Reports you submit show the incident location, never your identity, on the public map.',
      },
    }),
  },
  {
    id: 'delete-account',
    category: 'privacy',
    ...defineMessages({
      question: { id: 'faq.deleteAccount.question', defaultMessage: 'How do I delete my account and data?' },
      answer: {
        id: 'faq.deleteAccount.answer',
        defaultMessage:
          'Contact our support team from the Contact page and we will delete your account and personal data. Anonymous, aggregated incident statistics may be kept to improve road safety.',
      },
    }),
  },
];

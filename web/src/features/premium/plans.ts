import type { IntlShape, MessageDescriptor } from 'react-intl';
import { VOICE_TEXTS } from '@/common/voice-texts';
import { defineMessages } from '@/i18n';

/** The spec's plans and marketing constants (part 2, section 9). */
export const TRIAL_DAYS = 14;
export const MONEY_BACK_DAYS = 30;
export const ANNUAL_DISCOUNT_PERCENT = 20;
/** Family/Team: its monthly price covers this many users; each one more costs EXTRA_USER_PRICE a month. */
export const FAMILY_USERS = 5;
export const EXTRA_USER_PRICE = 10;

export const PREMIUM_TOASTS = defineMessages({
  disabled: { id: 'premium.toast.disabled', defaultMessage: 'Premium subscriptions are currently disabled' },
  contactDisabled: { id: 'premium.toast.contactDisabled', defaultMessage: 'Contact feature is currently disabled' },
});

export interface Plan {
  id: 'free' | 'single' | 'family';
  name: MessageDescriptor;
  /** US dollars a month. */
  price: number;
  period: MessageDescriptor;
  /** Shown under the price. */
  note: MessageDescriptor;
  features: MessageDescriptor[];
  popular?: boolean;
}

/** Whole US dollars in the reader's locale: '$10' in English. */
export const usd = (amount: number, intl: IntlShape): string =>
  intl.formatNumber(amount, { style: 'currency', currency: 'USD', minimumFractionDigits: 0, maximumFractionDigits: 0 });

/** The values the plans' messages use: resolve each with intl.formatMessage(message, planValues(intl)). */
export const planValues = (intl: IntlShape) => ({ trialDays: TRIAL_DAYS, users: FAMILY_USERS, extraPrice: usd(EXTRA_USER_PRICE, intl) });

const T = defineMessages({
  freeName: { id: 'premium.plan.free.name', defaultMessage: 'Free' },
  freePeriod: { id: 'premium.plan.free.period', defaultMessage: 'forever' },
  freeNote: { id: 'premium.plan.free.note', defaultMessage: 'For getting started' },
  freeRealTime: { id: 'premium.plan.free.realTime', defaultMessage: 'Real-time alerts near you' },
  freeRadius: { id: 'premium.plan.free.radius', defaultMessage: '10-mile alert radius' },
  freeHistory: { id: 'premium.plan.free.history', defaultMessage: '7-day alert history' },
  freeMap: { id: 'premium.plan.free.map', defaultMessage: 'Public safety map' },
  freeForum: { id: 'premium.plan.free.forum', defaultMessage: 'Community forum access' },
  singleName: { id: 'premium.plan.single.name', defaultMessage: 'Single User' },
  perMonth: { id: 'premium.plan.perMonth', defaultMessage: 'per month' },
  singleNote: { id: 'premium.plan.single.note', defaultMessage: '{trialDays}-day free trial' },
  singleEverythingFree: { id: 'premium.plan.single.everythingFree', defaultMessage: 'Everything in Free' },
  singleRadius: { id: 'premium.plan.single.radius', defaultMessage: '50-mile alert radius' },
  singleHistory: { id: 'premium.plan.single.history', defaultMessage: '90-day alert history' },
  singleCameras: { id: 'premium.plan.single.cameras', defaultMessage: '100+ live traffic cameras' },
  singlePriority: { id: 'premium.plan.single.priority', defaultMessage: 'Priority delivery of critical alerts' },
  familyName: { id: 'premium.plan.family.name', defaultMessage: 'Family/Team' },
  familyPeriod: { id: 'premium.plan.family.period', defaultMessage: 'per month for {users} users' },
  familyNote: { id: 'premium.plan.family.note', defaultMessage: '+{extraPrice} per month for each extra user' },
  familyEverythingSingle: { id: 'premium.plan.family.everythingSingle', defaultMessage: 'Everything in Single User' },
  familyRadius: { id: 'premium.plan.family.radius', defaultMessage: '100-mile alert radius' },
  familyHistory: { id: 'premium.plan.family.history', defaultMessage: 'Unlimited alert history' },
  familyMembers: { id: 'premium.plan.family.members', defaultMessage: 'Up to {users} members included' },
  familyShared: { id: 'premium.plan.family.shared', defaultMessage: 'Shared alerts for the whole group' },
  familyExtraUsers: { id: 'premium.plan.family.extraUsers', defaultMessage: 'Extra users {extraPrice} per month each' },
});

export const PLANS: Plan[] = [
  {
    id: 'free',
    name: T.freeName,
    price: 0,
    period: T.freePeriod,
    note: T.freeNote,
    features: [T.freeRealTime, T.freeRadius, T.freeHistory, VOICE_TEXTS.freePlanFeature, T.freeMap, T.freeForum],
  },
  {
    id: 'single',
    name: T.singleName,
    price: 10,
    period: T.perMonth,
    note: T.singleNote,
    popular: true,
    features: [T.singleEverythingFree, T.singleRadius, T.singleHistory, T.singleCameras, T.singlePriority],
  },
  {
    id: 'family',
    name: T.familyName,
    price: 30,
    period: T.familyPeriod,
    note: T.familyNote,
    features: [T.familyEverythingSingle, T.familyRadius, T.familyHistory, T.familyMembers, T.familyShared, T.familyExtraUsers],
  },
];

import { VOICE_TEXTS } from '@/common/voice-texts';

/** The spec's plans and marketing constants (part 2, section 9). */
export const TRIAL_DAYS = 14;
export const MONEY_BACK_DAYS = 30;
export const ANNUAL_DISCOUNT_PERCENT = 20;

export const PREMIUM_TOASTS = {
  disabled: 'Premium subscriptions are currently disabled',
  contactDisabled: 'Contact feature is currently disabled',
} as const;

export interface Plan {
  id: 'free' | 'single' | 'family';
  name: string;
  price: number;
  period: string;
  /** Shown under the price. */
  note: string;
  features: string[];
  popular?: boolean;
}

export const PLANS: Plan[] = [
  {
    id: 'free',
    name: 'Free',
    price: 0,
    period: 'forever',
    note: 'For getting started',
    features: [
      'Real-time alerts near you',
      '10-mile alert radius',
      '7-day alert history',
      VOICE_TEXTS.freePlanFeature,
      'Public safety map',
      'Community forum access',
    ],
  },
  {
    id: 'single',
    name: 'Single User',
    price: 10,
    period: 'per month',
    note: `${TRIAL_DAYS}-day free trial`,
    popular: true,
    features: ['Everything in Free', '50-mile alert radius', '90-day alert history', '100+ live traffic cameras', 'Priority delivery of critical alerts'],
  },
  {
    id: 'family',
    name: 'Family/Team',
    price: 30,
    period: 'per month for 5 users',
    note: '+$10 per month for each extra user',
    features: [
      'Everything in Single User',
      '100-mile alert radius',
      'Unlimited alert history',
      'Up to 5 members included',
      'Shared alerts for the whole group',
      'Extra users $10 per month each',
    ],
  },
];

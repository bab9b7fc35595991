import { createECDH, createHmac, randomBytes } from 'node:crypto';
import {
  AlertCategory,
  categoriesForAlertTypes,
  DEFAULT_PREFERENCE_ALERT_TYPES,
  Frequency,
  milesToKm,
  PreferenceAlertType,
  SEVERITIES,
  Severity,
} from '@beacon/contracts';
import { seededRandom } from '@beacon/common';
import { greatCircleKm, isEligible } from '@beacon/geo';

function pick<T>(random: () => number, weighted: readonly (readonly [T, number])[]): T {
  const total = weighted.reduce((n, [, w]) => n + w, 0);
  let r = random() * total;
  for (const [v, w] of weighted) if ((r -= w) < 0) return v;
  return weighted[weighted.length - 1][0];
}

/** Phoenix metro: city centres, 2020 population (thousands) and a spread (km) for each. */
const CITIES: readonly (readonly [{ lat: number; lng: number; sigmaKm: number }, number])[] = [
  [{ lat: 33.4484, lng: -112.074, sigmaKm: 13 }, 1608], // Phoenix
  [{ lat: 33.4152, lng: -111.8315, sigmaKm: 7 }, 504], // Mesa
  [{ lat: 33.3062, lng: -111.8413, sigmaKm: 5 }, 275], // Chandler
  [{ lat: 33.3528, lng: -111.789, sigmaKm: 5 }, 267], // Gilbert
  [{ lat: 33.5387, lng: -112.186, sigmaKm: 6 }, 248], // Glendale
  [{ lat: 33.4942, lng: -111.9261, sigmaKm: 7 }, 241], // Scottsdale
  [{ lat: 33.5806, lng: -112.2374, sigmaKm: 6 }, 190], // Peoria
  [{ lat: 33.4255, lng: -111.94, sigmaKm: 4 }, 180], // Tempe
  [{ lat: 33.6292, lng: -112.368, sigmaKm: 5 }, 143], // Surprise
  [{ lat: 33.4353, lng: -112.3577, sigmaKm: 5 }, 95], // Goodyear
  [{ lat: 33.4356, lng: -112.3496, sigmaKm: 4 }, 89], // Avondale
  [{ lat: 33.3703, lng: -112.5838, sigmaKm: 8 }, 91], // Buckeye
  [{ lat: 33.2487, lng: -111.6343, sigmaKm: 5 }, 59], // Queen Creek
  [{ lat: 33.415, lng: -111.5496, sigmaKm: 4 }, 38], // Apache Junction
  [{ lat: 33.6117, lng: -111.7174, sigmaKm: 3 }, 24], // Fountain Hills
];

/** Preference toggles people choose, with how often (the default set dominates). */
const TYPE_SETS: readonly (readonly [PreferenceAlertType[], number])[] = [
  [DEFAULT_PREFERENCE_ALERT_TYPES, 55],
  [['emergency', 'weather', 'traffic', 'crime', 'construction', 'events'], 12],
  [['emergency', 'weather'], 8],
  [['emergency', 'traffic'], 7],
  [['weather'], 5],
  [['emergency', 'crime'], 5],
  [['traffic', 'construction'], 4],
  [['emergency', 'weather', 'crime', 'events'], 4],
];
const THRESHOLDS: readonly (readonly [Severity, number])[] = [
  ['low', 45],
  ['medium', 30],
  ['high', 20],
  ['critical', 5],
];
const RADIUS_MILES: readonly (readonly [number, number])[] = [
  [5, 8],
  [10, 15],
  [25, 50],
  [50, 17],
  [100, 10],
];
const FREQUENCIES: readonly (readonly [Frequency, number])[] = [
  ['immediate', 85],
  ['hourly', 7],
  ['daily', 6],
  ['weekly', 2],
];
const QUIET: readonly (readonly [[string, string], number])[] = [
  [['22:00', '07:00'], 60],
  [['23:00', '06:00'], 25],
  [['21:00', '06:30'], 15],
];
const AGENTS = [
  'Mozilla/5.0 (Windows NT 10.0; Win64; x64) Chrome/131.0 Safari/537.36',
  'Mozilla/5.0 (Macintosh; Intel Mac OS X 14_6) Safari/605.1.15',
  'Mozilla/5.0 (X11; Linux x86_64; rv:133.0) Gecko/20100101 Firefox/133.0',
  'Mozilla/5.0 (Linux; Android 14) Chrome/131.0 Mobile Safari/537.36',
];

export const POPULATION_SHARES = { located: 0.97, pushSubscription: 0.7, pushDisabled: 0.05, sms: 0.3, email: 0.1, quietHours: 0.15, voice: 0.1 };

const F_PUSH_ENABLED = 1;
const F_SUBSCRIBED = 2;
const F_SMS = 4;
const F_EMAIL = 8;
const F_QUIET = 16;
const F_VOICE = 32;

/** The alert the benchmark sends, placed where a wrong-way driver would be reported: I-10 near Tempe. */
export const BENCH_ALERT = {
  title: 'Wrong-way driver on I-10 near Tempe',
  message: 'A wrong-way driver is heading west on I-10 between Tempe and downtown Phoenix. Stay off the freeway.',
  type: 'Traffic',
  severity: 'critical' as Severity,
  category: 'traffic' as AlertCategory,
  lat: 33.4106,
  lng: -111.9712,
  locationName: 'I-10 at Broadway Rd, Tempe',
  channels: ['web_push', 'sms', 'voice'],
};

/**
 * N subscribers kept in typed arrays (about 40 bytes each): what is seeded into alerts.user_preferences and
 * alerts.push_subscriptions, and the independent reference (libs/geo isEligible) for who must receive the alert.
 * User i's push endpoint is `<origin>/push/<i>` and its phone number ends with i, so the fake providers can
 * count arrivals per subscriber in a byte array instead of a map. The voice method (issue #39) is drawn from a
 * random stream of its own, so every other draw, and the population the earlier figures were measured on, is the same.
 */
export class Population {
  readonly lat: Float64Array;
  readonly lng: Float64Array;
  readonly radiusKm: Float64Array;
  readonly threshold: Uint8Array;
  readonly typeSet: Uint8Array;
  readonly frequency: Uint8Array;
  readonly quiet: Uint8Array;
  readonly flags: Uint8Array;
  readonly agent: Uint8Array;
  readonly userIds: Buffer;
  /** Browser key pairs the subscriptions use in turn; the auth secret is per subscription (derived from its number). */
  readonly keyPool: { privateKey: Buffer; publicKey: string }[];
  private readonly authSecret: Buffer;

  constructor(
    readonly size: number,
    readonly seed = 20_240_611,
  ) {
    const random = seededRandom(seed);
    const voiceRandom = seededRandom(seed ^ 0x7015e);
    this.lat = new Float64Array(size);
    this.lng = new Float64Array(size);
    this.radiusKm = new Float64Array(size);
    this.threshold = new Uint8Array(size);
    this.typeSet = new Uint8Array(size);
    this.frequency = new Uint8Array(size);
    this.quiet = new Uint8Array(size);
    this.flags = new Uint8Array(size);
    this.agent = new Uint8Array(size);
    // Random (not sequential) ids, as gen_random_uuid would give: index locality must not flatter the dispatcher.
    this.userIds = randomBytes(16 * size);
    const cityIndex = CITIES.map(([, w], i) => [i, w] as const);
    const typeIndex = TYPE_SETS.map(([, w], i) => [i, w] as const);
    const quietIndex = QUIET.map(([, w], i) => [i, w] as const);
    const freqIndex = FREQUENCIES.map(([, w], i) => [i, w] as const);
    for (let i = 0; i < size; i++) {
      this.userIds[16 * i + 6] = (this.userIds[16 * i + 6] & 0x0f) | 0x40;
      this.userIds[16 * i + 8] = (this.userIds[16 * i + 8] & 0x3f) | 0x80;
      if (random() < POPULATION_SHARES.located) {
        const city = CITIES[pick(random, cityIndex)][0];
        // Box-Muller: a normal spread around the centre.
        const r = Math.sqrt(-2 * Math.log(1 - random())) * city.sigmaKm;
        const theta = 2 * Math.PI * random();
        this.lat[i] = city.lat + (r * Math.cos(theta)) / 111.2;
        this.lng[i] = city.lng + (r * Math.sin(theta)) / (111.2 * Math.cos((city.lat * Math.PI) / 180));
      } else {
        this.lat[i] = NaN;
        this.lng[i] = NaN;
      }
      this.radiusKm[i] = milesToKm(pick(random, RADIUS_MILES));
      this.threshold[i] = SEVERITIES.indexOf(pick(random, THRESHOLDS));
      this.typeSet[i] = pick(random, typeIndex);
      this.frequency[i] = pick(random, freqIndex);
      this.quiet[i] = pick(random, quietIndex);
      let f = 0;
      if (random() >= POPULATION_SHARES.pushDisabled) f |= F_PUSH_ENABLED;
      if (random() < POPULATION_SHARES.pushSubscription) f |= F_SUBSCRIBED;
      if (random() < POPULATION_SHARES.sms) f |= F_SMS;
      if (random() < POPULATION_SHARES.email) f |= F_EMAIL;
      if (random() < POPULATION_SHARES.quietHours) f |= F_QUIET;
      if (voiceRandom() < POPULATION_SHARES.voice) f |= F_VOICE;
      this.flags[i] = f;
      this.agent[i] = Math.floor(random() * AGENTS.length);
    }
    this.keyPool = Array.from({ length: 64 }, () => {
      const ecdh = createECDH('prime256v1');
      const publicKey = ecdh.generateKeys().toString('base64url');
      return { privateKey: ecdh.getPrivateKey(), publicKey };
    });
    this.authSecret = randomBytes(32);
  }

  userId(i: number): string {
    const h = this.userIds.toString('hex', 16 * i, 16 * i + 16);
    return `${h.slice(0, 8)}-${h.slice(8, 12)}-${h.slice(12, 16)}-${h.slice(16, 20)}-${h.slice(20)}`;
  }

  located(i: number) {
    return !Number.isNaN(this.lat[i]);
  }

  categories(i: number): AlertCategory[] {
    return categoriesForAlertTypes(TYPE_SETS[this.typeSet[i]][0]);
  }

  alertTypes(i: number): PreferenceAlertType[] {
    return TYPE_SETS[this.typeSet[i]][0];
  }

  pushEnabled(i: number) {
    return (this.flags[i] & F_PUSH_ENABLED) !== 0;
  }

  subscribed(i: number) {
    return (this.flags[i] & F_SUBSCRIBED) !== 0;
  }

  smsEnabled(i: number) {
    return (this.flags[i] & F_SMS) !== 0;
  }

  /** The Voice alerts method on (a phone number comes with it). */
  voiceEnabled(i: number) {
    return (this.flags[i] & F_VOICE) !== 0;
  }

  emailEnabled(i: number) {
    return (this.flags[i] & F_EMAIL) !== 0;
  }

  quietHours(i: number): [string, string] | null {
    return (this.flags[i] & F_QUIET) !== 0 ? QUIET[this.quiet[i]][0] : null;
  }

  frequencyOf(i: number): Frequency {
    return FREQUENCIES[this.frequency[i]][0];
  }

  thresholdOf(i: number): Severity {
    return SEVERITIES[this.threshold[i]];
  }

  userAgent(i: number) {
    return AGENTS[this.agent[i]];
  }

  /** E.164, with the subscriber number in the last seven digits (10 million distinct); for SMS and voice. */
  phone(i: number): string | null {
    if (!this.smsEnabled(i) && !this.voiceEnabled(i)) return null;
    return `+1${['480', '602', '623'][i % 3]}${String(i).padStart(7, '0')}`;
  }

  static indexOfPhone(phone: string): number {
    return Number(phone.slice(-7));
  }

  pushKeys(i: number): { p256dh: string; auth: string; privateKey: Buffer } {
    const k = this.keyPool[i % this.keyPool.length];
    return { p256dh: k.publicKey, auth: this.authOf(i), privateKey: k.privateKey };
  }

  private authOf(i: number) {
    return createHmac('sha256', this.authSecret).update(String(i)).digest().subarray(0, 16).toString('base64url');
  }

  /** Who must receive an alert on each channel, by libs/geo isEligible (the rule's reference implementation). */
  expected(alert: { severity: Severity; category: AlertCategory; lat: number; lng: number; radiusKm: number }) {
    const push = new Uint8Array(this.size);
    const sms = new Uint8Array(this.size);
    const voice = new Uint8Array(this.size);
    let pushCount = 0;
    let smsCount = 0;
    let voiceCount = 0;
    let recipients = 0;
    for (let i = 0; i < this.size; i++) {
      const user = {
        severityThreshold: this.thresholdOf(i),
        categories: this.categories(i),
        lat: this.located(i) ? this.lat[i] : null,
        lng: this.located(i) ? this.lng[i] : null,
        radiusKm: this.radiusKm[i],
      };
      if (!isEligible({ ...alert }, user)) continue;
      const p = this.pushEnabled(i) && this.subscribed(i);
      const s = this.smsEnabled(i);
      const v = this.voiceEnabled(i);
      if (p) ((push[i] = 1), pushCount++);
      if (s) ((sms[i] = 1), smsCount++);
      if (v) ((voice[i] = 1), voiceCount++);
      if (p || s || v) recipients++;
    }
    return { push, sms, voice, pushCount, smsCount, voiceCount, recipients };
  }

  /**
   * The alert radius (km, to 0.01) around `centre` that reaches `share` of the subscribers, given their own
   * radius, thresholds, categories and channels: the benchmark's "about 20% of subscribers".
   */
  radiusReaching(share: number, alert: { severity: Severity; category: AlertCategory; lat: number; lng: number }): number {
    const distances: number[] = [];
    let everywhere = 0;
    for (let i = 0; i < this.size; i++) {
      if (!(this.pushEnabled(i) && this.subscribed(i)) && !this.smsEnabled(i) && !this.voiceEnabled(i)) continue;
      if (this.threshold[i] > SEVERITIES.indexOf(alert.severity) || !this.categories(i).includes(alert.category)) continue;
      if (!this.located(i)) {
        everywhere++;
        continue;
      }
      const d = greatCircleKm(alert, { lat: this.lat[i], lng: this.lng[i] });
      if (d <= this.radiusKm[i]) distances.push(d);
    }
    distances.sort((a, b) => a - b);
    const k = Math.min(distances.length - 1, Math.max(0, Math.round(share * this.size) - everywhere - 1));
    return Math.max(1, Math.ceil(distances[k] * 100) / 100);
  }
}

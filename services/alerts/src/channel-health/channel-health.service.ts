import { Injectable } from '@nestjs/common';
import { DELIVERY_CHANNELS, type ChannelHealth, type ChannelHealthReport, type DeliveryChannel } from '@beacon/contracts';
import { ChannelHealthRepository } from '../settings/channel-health.repository';
import { channelProblem } from '../settings/channel-readiness';
import { AdminSettings, SettingsRepository } from '../settings/settings.repository';
import { ChannelCounts, ChannelCountsRepository } from './channel-counts.repository';

/**
 * How long the counts are kept per process. Measured on a generated million people (80% with a channel on, 60% of the
 * pushing ones with a browser) and a million deliveries (100k receipts in the last hour): who is reachable now reads
 * all of user_preferences, ~1.2-1.8 s even as a hash semi-join with the subscriptions; the receipts' index ranges take
 * 20 ms when the table is all-visible, 0.5 s when recently written (heap fetches). The dashboard and the composer
 * both poll this, so a figure half a minute old is read once per process rather than by every screen.
 */
const CHANNEL_COUNTS_TTL_MS = 30_000;

/** The provider that sends each channel as saved; null where none is set (ChannelHealth.provider). */
function providerOf(s: AdminSettings, channel: DeliveryChannel): ChannelHealth['provider'] {
  if (channel === 'push') return 'push_services';
  if (channel === 'email') return s.email.url ? 'relay' : null;
  if (channel === 'voice' || s.sms.provider === 'twilio') return s.twilio.accountSid ? 'twilio' : null;
  return s.webhook.url ? 'webhook' : null;
}

/**
 * Whether the channel's provider sends receipts as configured (ChannelReceipts): push always (the service worker
 * reports the notification shown), SMS through Twilio (its status callbacks) or the webhook once its receipt secret is
 * set (unsigned receipts are refused), e-mail once the relay's event key is set, voice whenever it can call.
 */
function receiptsOf(s: AdminSettings, channel: DeliveryChannel, configured: boolean): boolean {
  if (channel === 'push') return true;
  if (channel === 'sms') return s.sms.provider === 'twilio' || !!s.webhook.secret;
  if (channel === 'email') return !!s.email.eventsKey;
  return configured;
}

/** Provider health per channel (GET /api/alerts/admin/channel-health): the dashboard's and the composer's. */
@Injectable()
export class ChannelHealthService {
  private counts: { at: number; value: Promise<ChannelCounts> } | null = null;

  constructor(
    private readonly settings: SettingsRepository,
    private readonly health: ChannelHealthRepository,
    private readonly repo: ChannelCountsRepository,
  ) {}

  async report(): Promise<ChannelHealthReport> {
    const [settings, records, counts] = await Promise.all([this.settings.get(), this.health.all(), this.cachedCounts()]);
    const channels = DELIVERY_CHANNELS.map((channel): ChannelHealth => {
      const problem = channelProblem(settings, channel);
      const record = records.find((r) => r.channel === channel);
      return {
        channel,
        provider: providerOf(settings, channel),
        configured: problem === null,
        problem,
        receipts: receiptsOf(settings, channel, problem === null),
        lastTest: record?.last_test_at
          ? { at: new Date(record.last_test_at).toISOString(), ok: !!record.last_test_ok, message: record.last_test_message ?? '' }
          : null,
        lastError: record?.last_error_at ? { at: new Date(record.last_error_at).toISOString(), message: record.last_error ?? '' } : null,
        receiptsLastHour: counts.receiptsLastHour[channel],
        reachableNow: counts.reachableNow[channel],
        ...(channel === 'sms' ? { stoppedNumbers: counts.stoppedNumbers } : {}),
      };
    });
    return { channels, checkedAt: new Date().toISOString() };
  }

  /** The counts, read at most once per CHANNEL_COUNTS_TTL_MS per process; callers meanwhile share one read. A failed read is not kept. */
  private cachedCounts(): Promise<ChannelCounts> {
    const now = Date.now();
    if (this.counts && now - this.counts.at < CHANNEL_COUNTS_TTL_MS) return this.counts.value;
    const value = this.readCounts();
    const entry = { at: now, value };
    this.counts = entry;
    value.catch(() => {
      if (this.counts === entry) this.counts = null;
    });
    return value;
  }

  private async readCounts(): Promise<ChannelCounts> {
    const [receiptsLastHour, reachableNow, stoppedNumbers] = await Promise.all([
      this.repo.receiptsLastHour(),
      this.repo.reachableNow(),
      this.repo.stoppedNumbers(),
    ]);
    return { receiptsLastHour, reachableNow, stoppedNumbers };
  }
}

import { Injectable, Logger } from '@nestjs/common';
import { ChannelBatch, DEFAULT_JOB_OPTIONS, JobIds, JobName } from '@beacon/contracts';
import { AlertsDeliveryEnv } from '../config/delivery-env';
import { JobQueue } from '@beacon/common';
import { channelBatchJob } from '../deliveries/channel-batch-job';
import { DeliveriesRepository, ReceiptChange, ReceiptInput } from '../deliveries/deliveries.repository';
import { ProgressPublisher } from '../live/progress.publisher';

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/**
 * A redial's batch number: the job is the redial's own (JobIds.voiceRedial), and the number only keeps it apart from
 * the dispatch's batches (0, 1, ...) and the operators' actions' (DeliveryActionsService) in what the job carries.
 */
export const VOICE_REDIAL_BATCH = 900_000_000;

/**
 * What providers say of the messages they took (receipts), applied to the deliveries they name: the state changes
 * are DeliveriesRepository.applyReceipts'; here the consoles are told (live progress) and unanswered calls are queued
 * to be dialled again.
 */
@Injectable()
export class ReceiptsService {
  private readonly logger = new Logger('Receipts');

  constructor(
    private readonly deliveries: DeliveriesRepository,
    private readonly progress: ProgressPublisher,
    private readonly queue: JobQueue,
    private readonly env: AlertsDeliveryEnv,
  ) {}

  /**
   * Applies the receipts and returns how many deliveries changed. A receipt naming no delivery of Beacon's (not an
   * id, unknown, or already settled) changes nothing: providers retry what is refused, so it is not an error.
   */
  async apply(receipts: ReceiptInput[]): Promise<number> {
    const known = receipts.filter((r) => UUID.test(r.deliveryId));
    if (!known.length) return 0;
    const changed = await this.deliveries.applyReceipts(known, this.env.VOICE_REDIAL_SECONDS);
    for (const alertId of new Set(changed.map((c) => c.alert_id))) this.progress.touch(alertId);
    await this.redial(changed.filter((c) => c.redial && c.id === c.lead));
    if (changed.length < known.length) this.logger.debug(`${known.length - changed.length} of ${known.length} receipts changed nothing`);
    return changed.length;
  }

  /**
   * One voice job per call not answered, delayed until its next attempt, under the redial's own id so that a
   * provider's repeated callback queues nothing more. Should Redis not take it, the delivery waits pending, and the
   * sweep re-drives it as stranded (maintenance/stranded-deliveries.ts): the receipt is not refused for it.
   */
  private async redial(calls: ReceiptChange[]): Promise<void> {
    for (const c of calls) {
      const batch = VOICE_REDIAL_BATCH + c.attempts;
      // a digest's call gathers the deliveries merged into it again, as a held batch's claim does
      const data: ChannelBatch = { alertId: c.alert_id, channel: 'voice', batch, deliveryIds: [c.id], ...(c.digest ? { held: true } : {}) };
      // retried like any channel job (its retry policy), and due when next_attempt_at says (applyReceipts)
      const plan = { channel: 'voice' as const, batch, notBefore: null, ids: [c.id], stranded: false };
      const { opts } = channelBatchJob(c.alert_id, plan, { CHANNEL_RETRY_BASE_MS: DEFAULT_JOB_OPTIONS.backoff.delay });
      try {
        await this.queue.add(JobName.VoiceSend, data, {
          ...opts,
          jobId: JobIds.voiceRedial(c.alert_id, c.id, c.attempts),
          delay: this.env.VOICE_REDIAL_SECONDS * 1000,
        });
      } catch (e) {
        this.logger.warn(`delivery ${c.id}: redial not queued (${(e as Error).message}); the sweep re-drives it`);
      }
    }
  }
}

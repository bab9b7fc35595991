import { Injectable } from '@nestjs/common';
import type { Job } from 'bullmq';
import { ChannelBatch, JobName, JobPayloads, VOICE_RING_SECONDS } from '@beacon/contracts';
import { observeProvider, OnJob } from '@beacon/common';
import { DispatcherEnv } from '../config/dispatcher-env.dto';
import type { Outcome } from '../deliveries/deliveries.repository';
import { TwilioClient } from '../providers/twilio.client';
import { ChannelHealthRepository } from '../settings/channel-health.repository';
import { channelProblem } from '../settings/channel-readiness';
import { SettingsRepository } from '../settings/settings.repository';
import { providerCallbackUrl } from './callback-urls';
import { recordChannelError } from './channel-errors';
import { BatchRefused, ChannelBatchRunner, ChannelSender, SendWindow, sendEach, Settle, withinWindow } from './channel-batch.runner';
import type { ChannelMessage } from './send-targets.repository';
import { providerFailure, TWILIO_LANES } from './twilio-outcome';
import { voiceTwiml } from './voice-twiml';

/**
 * Voice alerts (issue #39): one phone call per message through the Twilio-compatible account, its TwiML inline (the
 * alert said twice in the person's language, then "press 1 if you are safe, 2 if you need help", see voiceTwiml).
 * A call Twilio queued is `sent`, under the call's sid; whether it was answered comes later, from the call's status
 * callback (the receipts endpoint), which also redials an unanswered call. Lanes as the other senders: each call's
 * outcome is written before its lane places the next.
 */
@Injectable()
export class VoiceSender implements ChannelSender {
  constructor(
    private readonly settings: SettingsRepository,
    private readonly runner: ChannelBatchRunner,
    private readonly env: DispatcherEnv,
    private readonly twilio: TwilioClient,
    private readonly health: ChannelHealthRepository,
  ) {}

  @OnJob(JobName.VoiceSend)
  handle(data: JobPayloads[JobName.VoiceSend], job: Job) {
    return this.runner.run(data, job, this);
  }

  async send(messages: ChannelMessage[], _batch: ChannelBatch, window: SendWindow, settle: Settle): Promise<void> {
    const settings = await this.settings.get();
    const problem = channelProblem(settings, 'voice');
    if (problem) {
      await recordChannelError(this.health, 'voice', problem);
      throw new BatchRefused(problem);
    }
    const { twilio } = settings;
    const refusals: string[] = [];

    await sendEach(messages, TWILIO_LANES, settle, async (m): Promise<Outcome> => {
      if (!m.recipient.voice_enabled) return { id: m.id, ok: false, failure: 'withdrawn', error: 'the user turned voice alerts off' };
      const to = m.recipient.phone_number;
      if (!to) return { id: m.id, ok: false, failure: 'permanent', error: 'no phone number' };
      if (Date.now() >= window.deadline) return { id: m.id, ok: false, failure: 'deferred', error: 'batch deadline passed before this call' };
      try {
        const placed = await withinWindow(window, () =>
          observeProvider('voice', () =>
            this.twilio.placeCall({
              accountSid: twilio.accountSid,
              authToken: twilio.authToken,
              from: twilio.from,
              to,
              twiml: voiceTwiml(m.alerts, providerCallbackUrl(this.env.PUBLIC_URL, 'twilioVoiceGather', m.id)),
              statusCallback: providerCallbackUrl(this.env.PUBLIC_URL, 'twilioVoiceStatus', m.id),
              timeoutSeconds: VOICE_RING_SECONDS,
            }),
          ),
        );
        if (!placed.done) return { id: m.id, ok: false, failure: 'transient', error: 'Twilio: no answer by the end of the batch; outcome unknown' };
        return { id: m.id, ok: true, messageId: placed.value.sid };
      } catch (e) {
        const outcome = providerFailure(m.id, e);
        if (outcome.failure === 'permanent') refusals.push(outcome.error);
        return outcome;
      }
    });
    // The last refusal of the batch (Twilio's code and words, no number): what provider health shows.
    if (refusals.length) await recordChannelError(this.health, 'voice', refusals[refusals.length - 1]);
  }
}

import { Injectable } from '@nestjs/common';
import type { Job } from 'bullmq';
import { ChannelBatch, JobName, JobPayloads, VOICE_RING_SECONDS } from '@beacon/contracts';
import { OnJob } from '@beacon/common';
import { DispatcherEnv } from '../config/dispatcher-env.dto';
import { TwilioClient } from '../providers/twilio.client';
import { ChannelHealthRepository } from '../settings/channel-health.repository';
import { SettingsRepository } from '../settings/settings.repository';
import { providerCallbackUrl } from './callback-urls';
import { settingsToSend } from './channel-errors';
import { ChannelBatchRunner, ChannelSender, SendWindow, Settle } from './channel-batch.runner';
import type { ChannelMessage } from './send-targets.repository';
import { sendThroughTwilio } from './twilio-outcome';
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
    const settings = await settingsToSend(this.settings, this.health, 'voice');
    const { twilio } = settings;
    await sendThroughTwilio('voice', messages, window, settle, this.health, (m) => {
      if (!m.recipient.voice_enabled) return { id: m.id, ok: false, failure: 'withdrawn', error: 'the user turned voice alerts off' };
      const to = m.recipient.phone_number;
      if (!to) return { id: m.id, ok: false, failure: 'permanent', error: 'no phone number' };
      return () =>
        this.twilio.placeCall({
          accountSid: twilio.accountSid,
          authToken: twilio.authToken,
          from: twilio.from,
          to,
          twiml: voiceTwiml(m.alerts, providerCallbackUrl(this.env.PUBLIC_URL, 'twilioVoiceGather', m.id)),
          statusCallback: providerCallbackUrl(this.env.PUBLIC_URL, 'twilioVoiceStatus', m.id),
          timeoutSeconds: VOICE_RING_SECONDS,
        });
    });
  }
}

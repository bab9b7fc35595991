import { Injectable, Logger } from '@nestjs/common';
import { replyIntent, ReplyIntent, replyWords } from '@beacon/contracts';
import { AlertsRepository } from '../alerts/alerts.repository';
import { HelpRequestsRepository } from '../alerts/help-requests.repository';
import { DeliveriesRepository } from '../deliveries/deliveries.repository';
import { ProgressPublisher } from '../live/progress.publisher';
import { RepliesRepository, ReplyTarget } from './replies.repository';

/** The help request a reply opens, in the words staff read beside it. */
export const HELP_BY_SMS = 'Replied HELP by SMS';
export const HELP_BY_CALL = 'Pressed 2 on the alert call';

/** An SMS a number sent back, as a provider posted it. */
export interface InboundSms {
  from: string;
  text: string;
  /** The provider's id of the message (once per message: a retried callback carries the same). */
  providerRef: string;
}

/** A key pressed in an alert's call, on the delivery the call was made for. */
export interface KeyPress {
  deliveryId: string;
  digits: string;
  /** The call's id: one key press is recorded per call. */
  callSid: string;
  /** The number called, as the provider says it. */
  to: string | null;
}

/** What a key press asks of the call: its words said and hang up, or the prompt again. */
export type KeyAnswer = { language: string | null; say: 'safe' | 'help' | 'goodbye' } | { language: string | null; promptAgain: true };

/** A number as it is kept (E.164): spaces, dashes, dots and brackets a gateway may add are dropped. */
export const normalizeNumber = (n: string) => n.trim().replace(/[\s().-]/g, '');

/**
 * Replies by SMS (SAFE/1, HELP/2, STOP, START, anything else) and keys pressed in a call (1, 2), matched to the
 * latest alert sent to the number: I'm Safe as the app records it, a help request with the alert it answers, the
 * number's SMS stopped or resumed. Each provider message is acted on once (RepliesRepository.record); its answer, in
 * the person's language, is the same when a provider retries.
 */
@Injectable()
export class RepliesService {
  private readonly logger = new Logger('Replies');

  constructor(
    private readonly replies: RepliesRepository,
    private readonly alerts: AlertsRepository,
    private readonly help: HelpRequestsRepository,
    private readonly deliveries: DeliveriesRepository,
    private readonly progress: ProgressPublisher,
  ) {}

  /** Acts on an SMS reply and returns the answer to send back to the number. */
  async sms(reply: InboundSms): Promise<string> {
    const from = normalizeNumber(reply.from);
    const intent = replyIntent(reply.text);
    const target = await this.replies.latestSentTo(from);
    const person = target ? null : await this.replies.personWith(from);
    const words = replyWords(target?.language ?? person?.language);
    await this.act({ target, userId: person?.userId ?? null, channel: 'sms', intent, phoneNumber: from, providerRef: reply.providerRef }, HELP_BY_SMS);
    this.logger.log(`sms reply: ${intent}${target ? ` to alert ${target.alertId}` : ', no recent alert'}`);
    if (intent === 'stop') return words.stop;
    if (intent === 'start') return words.start;
    if (!target) return words.noAlert;
    return intent === 'safe' ? words.safe : intent === 'help' ? words.help : words.choices;
  }

  /** Acts on a key pressed in a call: 1 I'm Safe, 2 a help request, any other key hears the prompt again. */
  async key(press: KeyPress): Promise<KeyAnswer> {
    const target = await this.replies.target(press.deliveryId);
    if (!target) return { language: null, say: 'goodbye' };
    const intent = replyIntent(press.digits);
    // only 1 and 2 are kept: the call asks again after any other key, and the key pressed then is the call's reply
    if (intent !== 'safe' && intent !== 'help') return { language: target.language, promptAgain: true };
    const phoneNumber = target.phoneNumber ?? (press.to ? normalizeNumber(press.to) : '');
    await this.act({ target, userId: null, channel: 'voice', intent, phoneNumber, providerRef: `${press.callSid}:gather` }, HELP_BY_CALL);
    this.logger.log(`call key: ${intent} to alert ${target.alertId}`);
    return { language: target.language, say: intent };
  }

  /**
   * Keeps the reply (and a STOP or START with it, in one transaction) and, the first time, records what it asks of
   * the alert. Should that fail, the reply is forgotten again and the error answered: the provider's retry then acts.
   */
  private async act(
    reply: { target: ReplyTarget | null; userId: string | null; channel: 'sms' | 'voice'; intent: ReplyIntent; phoneNumber: string; providerRef: string },
    helpMessage: string,
  ): Promise<void> {
    if (!(await this.replies.record(reply))) return;
    const { target, intent } = reply;
    if (!target) return;
    try {
      if (intent === 'safe') await this.markSafe(target);
      else if (intent === 'help') {
        await this.help.insert({ alertId: target.alertId, userId: target.userId, userEmail: target.email, message: helpMessage, lat: null, lng: null });
      }
    } catch (e) {
      await this.replies.forget(reply.providerRef);
      throw e;
    }
    this.progress.touch(target.alertId);
  }

  /** I'm Safe on every alert the message carried (a digest lists several), as the app's button records it. */
  private async markSafe(target: ReplyTarget): Promise<void> {
    const alertIds = await this.deliveries.carriedAlertIds(target.deliveryId);
    for (const alertId of alertIds) {
      await this.alerts.markRead(alertId, target.userId);
      this.progress.touch(alertId);
    }
  }
}

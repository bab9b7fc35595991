import { Logger } from '@nestjs/common';
import { REPLY_WORDS } from '@beacon/contracts';
import type { AlertsRepository } from '../alerts/alerts.repository';
import type { HelpRequestsRepository } from '../alerts/help-requests.repository';
import type { DeliveriesRepository } from '../deliveries/deliveries.repository';
import type { ProgressPublisher } from '../live/progress.publisher';
import type { NewReply, RepliesRepository, ReplyTarget } from './replies.repository';
import { HELP_BY_CALL, HELP_BY_SMS, normalizeNumber, RepliesService } from './replies.service';

const TARGET: ReplyTarget = {
  deliveryId: 'd-lead',
  alertId: 'a-1',
  userId: 'u-1',
  channel: 'sms',
  language: 'es',
  email: 'ana@example.test',
  phoneNumber: '+16025550101',
};

// what each reply did is logged (intent and alert only); not the specs' concern
beforeAll(() => jest.spyOn(Logger.prototype, 'log').mockImplementation(() => undefined));

function setup(o: { target?: ReplyTarget | null; person?: { userId: string; language: string | null } | null; kept?: boolean; carried?: string[] } = {}) {
  const recorded: NewReply[] = [];
  const forgotten: string[] = [];
  const marked: [string, string][] = [];
  const helped: Record<string, unknown>[] = [];
  const touched: string[] = [];
  const state = { failMarkRead: false };
  const replies = {
    latestSentTo: jest.fn(async () => (o.target === undefined ? TARGET : o.target)),
    target: jest.fn(async (id: string) => (id === 'unknown' ? null : (o.target ?? TARGET))),
    personWith: jest.fn(async () => o.person ?? null),
    record: jest.fn(async (r: NewReply) => {
      recorded.push(r);
      return o.kept ?? true;
    }),
    forget: jest.fn(async (ref: string) => void forgotten.push(ref)),
  } as unknown as RepliesRepository;
  const alerts = {
    markRead: jest.fn(async (alertId: string, userId: string) => {
      if (state.failMarkRead) throw new Error('database gone');
      marked.push([alertId, userId]);
      return new Date();
    }),
  } as unknown as AlertsRepository;
  const help = { insert: jest.fn(async (h: Record<string, unknown>) => void helped.push(h)) } as unknown as HelpRequestsRepository;
  const deliveries = { carriedAlertIds: jest.fn(async () => o.carried ?? ['a-1']) } as unknown as DeliveriesRepository;
  const progress = { touch: (id: string) => void touched.push(id) } as unknown as ProgressPublisher;
  const service = new RepliesService(replies, alerts, help, deliveries, progress);
  return { service, recorded, forgotten, marked, helped, touched, state };
}

describe('RepliesService.sms', () => {
  it.each([
    ['SAFE', 'safe'],
    [' safe. ', 'safe'],
    ['1', 'safe'],
    ['Help', 'help'],
    ['2', 'help'],
    ['STOP', 'stop'],
    ['unsubscribe', 'stop'],
    ['START', 'start'],
    ['what is happening?', 'other'],
  ])('reads %p as %s', async (text, intent) => {
    const { service, recorded } = setup();
    await service.sms({ from: '+16025550101', text, providerRef: 'SM1' });
    expect(recorded[0].intent).toBe(intent);
  });

  it("SAFE marks every alert the message carried read (I'm Safe), answered in the person's language", async () => {
    const { service, recorded, marked, touched } = setup({ carried: ['a-1', 'a-2'] });
    expect(await service.sms({ from: '+16025550101', text: 'SAFE', providerRef: 'SM1' })).toBe(REPLY_WORDS.es.safe);
    expect(recorded).toEqual([{ target: TARGET, userId: null, channel: 'sms', intent: 'safe', phoneNumber: '+16025550101', providerRef: 'SM1' }]);
    expect(marked).toEqual([
      ['a-1', 'u-1'],
      ['a-2', 'u-1'],
    ]);
    expect(touched).toEqual(expect.arrayContaining(['a-1', 'a-2']));
  });

  it('HELP opens a help request on the alert it answers, with the person’s e-mail and the SMS words', async () => {
    const { service, helped, touched } = setup();
    expect(await service.sms({ from: '+16025550101', text: 'help', providerRef: 'SM2' })).toBe(REPLY_WORDS.es.help);
    expect(helped).toEqual([{ alertId: 'a-1', userId: 'u-1', userEmail: 'ana@example.test', message: HELP_BY_SMS, lat: null, lng: null }]);
    expect(touched).toContain('a-1');
  });

  it('STOP without a recent alert still stops the number, in the language of whoever has it on file', async () => {
    const { service, recorded, marked, helped } = setup({ target: null, person: { userId: 'u-9', language: 'fr' } });
    expect(await service.sms({ from: '+16025550199', text: 'STOP', providerRef: 'SM3' })).toBe(REPLY_WORDS.fr.stop);
    expect(recorded[0]).toMatchObject({ target: null, userId: 'u-9', intent: 'stop', phoneNumber: '+16025550199' });
    expect(marked).toEqual([]);
    expect(helped).toEqual([]);
  });

  it('START resumes, anything else gets the choices; without a recent alert, SAFE/HELP/other hear that there is none (English for an unknown number)', async () => {
    expect(await setup().service.sms({ from: '+16025550101', text: 'START', providerRef: 'SM4' })).toBe(REPLY_WORDS.es.start);
    expect(await setup().service.sms({ from: '+16025550101', text: 'hello', providerRef: 'SM5' })).toBe(REPLY_WORDS.es.choices);
    const none = setup({ target: null, person: null });
    expect(await none.service.sms({ from: '+16025550101', text: 'SAFE', providerRef: 'SM6' })).toBe(REPLY_WORDS.en.noAlert);
    expect(none.marked).toEqual([]);
  });

  it('a reply already kept (the provider retried) changes nothing and is answered the same', async () => {
    const { service, marked, helped, touched } = setup({ kept: false });
    expect(await service.sms({ from: '+16025550101', text: 'SAFE', providerRef: 'SM1' })).toBe(REPLY_WORDS.es.safe);
    expect(await service.sms({ from: '+16025550101', text: 'HELP', providerRef: 'SM2' })).toBe(REPLY_WORDS.es.help);
    expect([marked, helped, touched]).toEqual([[], [], []]);
  });

  it("forgets the reply when its I'm Safe could not be recorded, so the provider's retry records it", async () => {
    const { service, forgotten, state } = setup();
    state.failMarkRead = true;
    await expect(service.sms({ from: '+16025550101', text: 'SAFE', providerRef: 'SM7' })).rejects.toThrow('database gone');
    expect(forgotten).toEqual(['SM7']);
  });

  it('matches the number as kept (E.164), whatever spacing the gateway added', async () => {
    const { service, recorded } = setup();
    await service.sms({ from: ' +1 (602) 555-0101 ', text: 'SAFE', providerRef: 'SM8' });
    expect(recorded[0].phoneNumber).toBe('+16025550101');
    expect(normalizeNumber('+44 20.7946.0000')).toBe('+442079460000');
  });
});

describe('RepliesService.key', () => {
  it("1: I'm Safe on the call's alert, once per call", async () => {
    const { service, recorded, marked } = setup({ target: { ...TARGET, channel: 'voice' } });
    expect(await service.key({ deliveryId: 'd-lead', digits: '1', callSid: 'CA1', to: '+16025550101' })).toEqual({ language: 'es', say: 'safe' });
    expect(recorded[0]).toMatchObject({ channel: 'voice', intent: 'safe', providerRef: 'CA1:gather', phoneNumber: '+16025550101' });
    expect(marked).toEqual([['a-1', 'u-1']]);
  });

  it('2: a help request in the call’s words', async () => {
    const { service, helped } = setup({ target: { ...TARGET, channel: 'voice' } });
    expect(await service.key({ deliveryId: 'd-lead', digits: '2', callSid: 'CA2', to: null })).toEqual({ language: 'es', say: 'help' });
    expect(helped[0]).toMatchObject({ alertId: 'a-1', message: HELP_BY_CALL });
  });

  it('another key hears the prompt again and keeps nothing; an unknown call says goodbye', async () => {
    const { service, recorded } = setup();
    expect(await service.key({ deliveryId: 'd-lead', digits: '7', callSid: 'CA3', to: null })).toEqual({ language: 'es', promptAgain: true });
    expect(await service.key({ deliveryId: 'd-lead', digits: '', callSid: 'CA3', to: null })).toEqual({ language: 'es', promptAgain: true });
    expect(await service.key({ deliveryId: 'unknown', digits: '1', callSid: 'CA4', to: null })).toEqual({ language: null, say: 'goodbye' });
    expect(recorded).toEqual([]);
  });
});

import { voiceWords } from '@beacon/contracts';
import { parseTwiml, said, twimlElements } from '../testing/fake-twilio';
import { alertTextFor } from './alert-text';
import { asDelivered } from './delivery-text';
import type { SendableAlert } from './send-targets.repository';
import { TWIML_MAX_CHARS, voiceTwiml } from './voice-twiml';
import { xmlEscape } from '../providers/twiml';

const GATHER = 'https://beacon.example.org/api/alerts/providers/twilio/voice/gather?d=0b0c3a64-3c5e-4a42-9f0e-6d1e2f3a4b5c';

const alert = (extra: Partial<SendableAlert> = {}): SendableAlert => ({
  id: 'a1',
  title: 'Wrong-way driver on I-10',
  message: 'A driver is heading west in the eastbound lanes. Stay off the freeway',
  translations: {},
  type: 'Traffic',
  severity: 'critical',
  category: 'traffic',
  location_name: 'I-10 at Broadway Rd',
  status: 'active',
  sent_at: new Date('2026-11-24T10:00:00Z'),
  created_at: new Date('2026-11-24T10:00:00Z'),
  expired: false,
  ...extra,
});

describe('voiceTwiml', () => {
  it('says the alert, pauses, says it again, asks for a key inside the <Gather>, and says goodbye when none comes', () => {
    const xml = voiceTwiml([alert()], GATHER);
    const [gather] = twimlElements(parseTwiml(xml), 'Gather');
    expect(gather.attrs).toEqual({ numDigits: '1', timeout: '8', action: GATHER, method: 'POST' });
    expect(twimlElements(gather, 'Pause')[0].attrs).toEqual({ length: '1' });
    const w = voiceWords('en');
    const text = 'Wrong-way driver on I-10. A driver is heading west in the eastbound lanes. Stay off the freeway. Location: I-10 at Broadway Rd.';
    expect(said(xml)).toEqual([
      { language: 'en-US', text: `${w.intro} ${text}`, inGather: true },
      { language: 'en-US', text: `${w.repeat} ${text}`, inGather: true },
      { language: 'en-US', text: w.prompt, inGather: true },
      { language: 'en-US', text: w.goodbye, inGather: false },
    ]);
    expect(xml.startsWith('<Response><Gather ')).toBe(true);
  });

  it("speaks a Spanish reader's alert in Spanish, with Spanish words and es-US", () => {
    const es = alertTextFor(alert({ translations: { es: { title: 'Conductor en sentido contrario en la I-10', message: 'Evite la autopista' } } }), 'es');
    const lines = said(voiceTwiml([es], GATHER));
    const w = voiceWords('es');
    expect(lines.every((l) => l.language === 'es-US')).toBe(true);
    expect(lines.map((l) => l.text)).toEqual([
      `${w.intro} Conductor en sentido contrario en la I-10. Evite la autopista. ${w.place} I-10 at Broadway Rd.`,
      `${w.repeat} Conductor en sentido contrario en la I-10. Evite la autopista. ${w.place} I-10 at Broadway Rd.`,
      w.prompt,
      w.goodbye,
    ]);
  });

  it('a reader whose language the alert lacks hears the English text in English, not Spanish words around it', () => {
    const lines = said(voiceTwiml([alertTextFor(alert(), 'es')], GATHER));
    expect(lines.every((l) => l.language === 'en-US')).toBe(true);
    expect(lines[0].text.startsWith(voiceWords('en').intro)).toBe(true);
  });

  it('says the lifecycle words of an update and an all-clear (asDelivered), in the reader’s language', () => {
    const es = alertTextFor(alert({ translations: { es: { title: 'Conductor en sentido contrario', message: 'Evite la autopista' } } }), 'es');
    expect(said(voiceTwiml([asDelivered(es, 'update')], GATHER))[0].text).toContain('Actualización: Conductor en sentido contrario.');
    const allClear = said(voiceTwiml([asDelivered(es, 'all_clear')], GATHER));
    expect(allClear[0].text).toContain('Fin de la alerta: Conductor en sentido contrario.');
    expect(allClear[1].text).toContain('Fin de la alerta: Conductor en sentido contrario.');
  });

  it('escapes what XML must not carry raw: the exact text is said, and the document parses strictly', () => {
    const title = 'Fish & chips <closed> "now" & it\'s &amp; not an entity';
    const xml = voiceTwiml([alert({ title, message: 'Line one\nline two\u0001 end', location_name: null })], `${GATHER}&x=<1>`);
    const lines = said(xml);
    expect(lines[0].text).toBe(`${voiceWords('en').intro} ${title}. Line one line two end.`);
    expect(twimlElements(parseTwiml(xml), 'Gather')[0].attrs.action).toBe(`${GATHER}&x=<1>`);
    expect(xmlEscape(`<a href="x">'&'</a>`)).toBe('&lt;a href=&quot;x&quot;&gt;&apos;&amp;&apos;&lt;/a&gt;');
  });

  it('a digest says how many, then the three most severe in turn and "and N more", twice, each alert in its own language', () => {
    const es = (id: string, title: string) =>
      alertTextFor(alert({ id, title: `${title} (en)`, translations: { es: { title, message: `${title}, mensaje` } }, location_name: null }), 'es');
    const alerts = [
      es('a1', 'Tormenta de polvo'),
      alertTextFor(alert({ id: 'a2', title: 'Wind advisory', message: 'Gusts to 50 mph', location_name: null }), 'es'),
      es('a3', 'Helada'),
      es('a4', 'Lluvia'),
      es('a5', 'Niebla'),
    ];
    const lines = said(voiceTwiml(alerts, GATHER));
    const w = voiceWords('es');
    expect(lines).toEqual([
      { language: 'es-US', text: `${w.intro} 5 alertas en su zona, la más grave primero. Tormenta de polvo. Tormenta de polvo, mensaje.`, inGather: true },
      { language: 'en-US', text: 'Wind advisory. Gusts to 50 mph.', inGather: true },
      { language: 'es-US', text: 'Helada. Helada, mensaje.', inGather: true },
      { language: 'es-US', text: 'y 2 más.', inGather: true },
      { language: 'es-US', text: `${w.repeat} Tormenta de polvo. Tormenta de polvo, mensaje.`, inGather: true },
      { language: 'en-US', text: 'Wind advisory. Gusts to 50 mph.', inGather: true },
      { language: 'es-US', text: 'Helada. Helada, mensaje.', inGather: true },
      { language: 'es-US', text: 'y 2 más.', inGather: true },
      { language: 'es-US', text: w.prompt, inGather: true },
      { language: 'es-US', text: w.goodbye, inGather: false },
    ]);
  });

  it("fits Twilio's 4,000 characters: long alerts are repeated by title, and past that cut short, still said twice", () => {
    const long = (id: string) =>
      alert({ id, title: `Alert ${id} `.padEnd(100, 'x'), message: 'Evacuate now & go north. '.repeat(16).slice(0, 400), location_name: 'y'.repeat(200) });
    const digest = voiceTwiml([long('a1'), long('a2'), long('a3')], GATHER);
    expect(digest.length).toBeLessThanOrEqual(TWIML_MAX_CHARS);
    const lines = said(digest);
    expect(lines[1].text).toContain('Evacuate now & go north.');
    // the repeat says titles and places only
    expect(lines.find((l) => l.text.startsWith(voiceWords('en').repeat))!.text).not.toContain('Evacuate');

    // Every character escaped five times over: each alert is cut, but the call still says each twice and asks.
    const hostile = (id: string) => alert({ id, title: '&'.repeat(100), message: '&'.repeat(500), location_name: '&'.repeat(200) });
    const cut = voiceTwiml([hostile('a1'), hostile('a2'), hostile('a3')], GATHER);
    expect(cut.length).toBeLessThanOrEqual(TWIML_MAX_CHARS);
    const cutLines = said(cut);
    expect(cutLines.filter((l) => l.text.includes('&&&'))).toHaveLength(6);
    expect(cutLines.at(-2)!.text).toBe(voiceWords('en').prompt);
  });
});

import { pickVoice, speak, speakingState, spokenText, stopSpeaking, voiceTag } from './speech';

const voice = (lang: string, name = lang, isDefault = false) =>
  ({ lang, name, default: isDefault, localService: true, voiceURI: name }) as SpeechSynthesisVoice;
const flood = {
  title: 'Inundación repentina',
  message: 'Suba a un terreno más alto ahora.',
  severity: 'high' as const,
  category: 'weather' as const,
  locationName: 'Tempe',
  language: 'es',
};

describe('voice alerts in the alert’s language', () => {
  it('tags each language as the phone channel does', () => {
    expect(voiceTag('es')).toBe('es-US');
    expect(voiceTag('zh')).toBe('cmn-CN');
    expect(voiceTag('xx')).toBe('en-US');
    expect(voiceTag(undefined)).toBe('en-US');
  });

  it('picks the exact voice, else one of the same language, else none', () => {
    const voices = [voice('en-US'), voice('es-ES'), voice('es-MX', 'es-MX', true), voice('zh-CN'), voice('vi_VN')];
    expect(pickVoice(voices, 'es-US')?.name).toBe('es-MX');
    expect(pickVoice([...voices, voice('es-US')], 'es-US')?.name).toBe('es-US');
    expect(pickVoice(voices, 'cmn-CN')?.name).toBe('zh-CN');
    expect(pickVoice(voices, 'vi-VN')?.name).toBe('vi_VN');
    expect(pickVoice(voices, 'ko-KR')).toBeUndefined();
  });

  it('reads Mandarin with a Mandarin voice before a Cantonese one, and never with a voice of another language', () => {
    expect(pickVoice([voice('zh-HK', 'Sin-ji', true), voice('zh-TW', 'Mei-Jia')], 'cmn-CN')?.name).toBe('Mei-Jia');
    expect(pickVoice([voice('zh-HK', 'Sin-ji')], 'cmn-CN')?.name).toBe('Sin-ji');
    expect(pickVoice([voice('en-US', 'Samantha', true)], 'vi-VN')).toBeUndefined();
  });

  it('says Beacon’s words around the alert in the same language', () => {
    expect(spokenText(flood, 'new')).toBe('Alta, Clima. Lugar: Tempe. Inundación repentina. Suba a un terreno más alto ahora.');
    expect(spokenText(flood, 'update')).toMatch(/^Actualización: Alta, Clima\./);
    expect(spokenText({ ...flood, allClear: { at: '2025-03-05T15:00:00Z', message: null } }, 'all_clear')).toBe(
      'Fin de la alerta: Inundación repentina. El peligro ha pasado. Esta alerta ha terminado.',
    );
    expect(
      spokenText({ ...flood, language: 'en', title: 'Flash flood', allClear: { at: '2025-03-05T15:00:00Z', message: 'Roads are open.' } }, 'all_clear'),
    ).toBe('All clear: Flash flood. Roads are open.');
  });
});

describe('speaking', () => {
  const spoken: { text: string; lang: string; voice: SpeechSynthesisVoice | null; onstart?: () => void; onend?: () => void }[] = [];
  const cancel = jest.fn();
  beforeEach(() => {
    spoken.length = 0;
    cancel.mockClear();
    Object.assign(window, {
      speechSynthesis: { speak: (u: (typeof spoken)[number]) => spoken.push(u), cancel, getVoices: () => [voice('en-US'), voice('es-US', 'Paulina')] },
    });
    Object.assign(globalThis, {
      SpeechSynthesisUtterance: class {
        lang = '';
        voice: SpeechSynthesisVoice | null = null;
        constructor(public text: string) {}
      },
    });
    stopSpeaking();
  });

  it('hands the browser an utterance with the language’s tag and voice, and shows it speaks until it ends', () => {
    expect(speak(flood, 'new')).toBe(true);
    expect(spoken[0]).toMatchObject({ lang: 'es-US', voice: expect.objectContaining({ name: 'Paulina' }) });
    expect(speakingState()).toEqual({ speaking: true, title: 'Inundación repentina', language: 'es' });
    spoken[0].onend?.();
    expect(speakingState().speaking).toBe(false);
  });

  it('hides the indicator when the browser has no voice engine and never says the utterance ended', () => {
    jest.useFakeTimers();
    try {
      const synth = window.speechSynthesis as unknown as { speaking: boolean; pending: boolean };
      Object.assign(synth, { speaking: true, pending: false });
      speak(flood, 'new');
      jest.advanceTimersByTime(1_000);
      expect(speakingState().speaking).toBe(true); // still speaking: it stays
      synth.speaking = false;
      jest.advanceTimersByTime(1_000);
      expect(speakingState().speaking).toBe(false);
    } finally {
      jest.useRealTimers();
    }
  });

  it('stops at once on Stop, and a critical alert interrupts what is being read', () => {
    speak(flood, 'new');
    speak({ ...flood, severity: 'critical' }, 'new');
    expect(cancel).toHaveBeenCalledTimes(2); // the reset before the test, and the critical one's interruption
    // the interrupted utterance's late end does not hide the indicator of the critical one
    spoken[0].onend?.();
    expect(speakingState().speaking).toBe(true);
    stopSpeaking();
    expect(cancel).toHaveBeenCalledTimes(3);
    expect(speakingState().speaking).toBe(false);
  });
});

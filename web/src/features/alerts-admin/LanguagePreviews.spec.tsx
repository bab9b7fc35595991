import { render, screen, within } from '@testing-library/react';
import { SMS_MAX_SEGMENTS } from '@beacon/contracts';
import { LanguagePreviews, readerPreviews, smsTooLong, type PreviewAlert } from './LanguagePreviews';

const flood: PreviewAlert = {
  title: 'Flood warning',
  message: 'Move to higher ground now.',
  translations: {
    es: { title: 'Aviso de inundación', message: 'Suba a un terreno más alto ahora.' },
    ko: { title: '홍수 경보', message: '지금 높은 곳으로 이동하십시오.' },
    vi: { title: 'Cảnh báo lũ', message: 'Hãy di chuyển lên vùng đất cao ngay.' },
  },
  severity: 'high',
};

const group = (name: string) => screen.getByRole('group', { name: `${name} preview` });

describe('LanguagePreviews: each language as it will be sent (issue #41)', () => {
  it('lists every language a reader may have chosen, English first, each marked with the language its text is in', () => {
    render(<LanguagePreviews alert={flood} channels={['push', 'sms', 'email']} label="Message per language and channel" />);
    const region = screen.getByRole('region', { name: 'Message per language and channel' });
    expect(
      within(region)
        .getAllByRole('group')
        .map((g) => [g.getAttribute('aria-label'), g.getAttribute('lang')]),
    ).toEqual([
      ['English preview', 'en'],
      ['Spanish (Español) preview', 'es'],
      ['French (Français) preview', 'en'],
      ['Chinese (中文) preview', 'en'],
      ['Vietnamese (Tiếng Việt) preview', 'vi'],
      ['Korean (한국어) preview', 'ko'],
    ]);
  });

  it('previews a Spanish translation in Spanish, lang="es": the push, the SMS with its segments, the e-mail subject in Spanish words', () => {
    render(<LanguagePreviews alert={flood} channels={['push', 'sms', 'email']} label="Preview" />);
    const spanish = group('Spanish (Español)');
    expect(spanish).toHaveAttribute('lang', 'es');
    const [push, sms, email] = within(spanish).getAllByRole('definition');
    expect(push).toHaveTextContent(/^Aviso de inundaciónSuba a un terreno más alto ahora\.$/);
    // the SMS: title, line break, message; "ó" and "á" are outside GSM-7
    expect(sms.querySelector('.pre-wrap')?.textContent).toBe('Aviso de inundación\nSuba a un terreno más alto ahora.');
    expect(sms).toHaveTextContent('1 segment · UCS-2 · 53 characters');
    // the severity as the e-mail sender names it to a Spanish reader: never "[High]"
    expect(email).toHaveTextContent('Subject: [Alta] Aviso de inundación');
    expect(spanish).not.toHaveTextContent(/No Spanish text|Flood warning|\[High\]/);
    // the console's own words stay English
    expect(within(spanish).getByText('Spanish (Español)')).toHaveAttribute('lang', 'en');
    expect(within(spanish).getByText('SMS')).toHaveAttribute('lang', 'en');
  });

  it('previews an alert without French as the English its French readers get, and says so', () => {
    render(<LanguagePreviews alert={flood} channels={['push', 'sms', 'email']} label="Preview" />);
    const french = group('French (Français)');
    expect(french).toHaveAttribute('lang', 'en');
    expect(within(french).getByText('No French text: French readers get the English.')).toBeInTheDocument();
    expect(french).toHaveTextContent('Flood warningMove to higher ground now.');
    expect(french).toHaveTextContent('Subject: [High] Flood warning');
    expect(french).toHaveTextContent('1 segment · GSM-7');
    expect(within(group('Chinese (中文)')).getByText('No Chinese text: Chinese readers get the English.')).toBeInTheDocument();
    for (const translated of ['English', 'Spanish (Español)', 'Vietnamese (Tiếng Việt)', 'Korean (한국어)']) {
      expect(group(translated)).not.toHaveTextContent(/No .* text/);
    }
  });

  it("puts an update's prefix in each text's language: Korean in Korean, English for readers the alert has no text for", () => {
    render(<LanguagePreviews alert={flood} kind="update" channels={['push', 'sms', 'email']} label="Preview" />);
    const korean = group('Korean (한국어)');
    expect(korean).toHaveAttribute('lang', 'ko');
    const [push, sms, email] = within(korean).getAllByRole('definition');
    expect(push).toHaveTextContent(/^업데이트: 홍수 경보지금 높은 곳으로 이동하십시오\.$/);
    expect(sms).toHaveTextContent('업데이트: 홍수 경보 지금 높은 곳으로 이동하십시오.');
    expect(email).toHaveTextContent('Subject: [높음] 업데이트: 홍수 경보');
    expect(korean).not.toHaveTextContent('Update:');
    expect(group('French (Français)')).toHaveTextContent('Update: Flood warning');
    expect(group('Spanish (Español)')).toHaveTextContent('Actualización: Aviso de inundación');
  });

  it("gives the all-clear Beacon's default in Vietnamese when the admin wrote none in it, the admin's own words elsewhere, never urgent", () => {
    render(
      <LanguagePreviews
        alert={{ ...flood, severity: 'critical' }}
        kind="all_clear"
        allClear={{ message: 'Roads are open again.', translations: { es: { message: 'Las carreteras están abiertas.' } } }}
        channels={['push', 'email']}
        label="Preview"
      />,
    );
    const vietnamese = group('Vietnamese (Tiếng Việt)');
    expect(vietnamese).toHaveAttribute('lang', 'vi');
    const [push, email] = within(vietnamese).getAllByRole('definition');
    expect(push).toHaveTextContent(/^Hết cảnh báo: Cảnh báo lũNguy hiểm đã qua\. Cảnh báo này đã kết thúc\.$/);
    // a critical alert's all-clear goes as high ("Cao"), as the server sends it
    expect(email).toHaveTextContent('Subject: [Cao] Hết cảnh báo: Cảnh báo lũ');
    expect(vietnamese).not.toHaveTextContent('Roads are open again.');
    expect(group('Spanish (Español)')).toHaveTextContent('Fin de la alerta: Aviso de inundaciónLas carreteras están abiertas.');
    // French readers get the English alert, so the English all-clear
    expect(group('French (Français)')).toHaveTextContent('All clear: Flood warningRoads are open again.');
    expect(group('English')).toHaveTextContent('Subject: [High] All clear: Flood warning');
  });

  it('says what a voice call says, with the place, in the text’s language', () => {
    render(<LanguagePreviews alert={{ ...flood, locationName: 'Riverside' }} channels={['voice']} label="Preview" />);
    expect(group('Spanish (Español)')).toHaveTextContent(
      'Esta es una alerta de seguridad pública de Beacon. Aviso de inundación. Suba a un terreno más alto ahora. Lugar: Riverside.',
    );
    expect(group('French (Français)')).toHaveTextContent(
      'This is a Beacon public safety alert. Flood warning. Move to higher ground now. Location: Riverside.',
    );
  });

  it('shows only the channels the alert goes out on, and flags an SMS too long in any language', () => {
    const long: PreviewAlert = { ...flood, translations: { zh: { title: '洪水', message: '水'.repeat(700) } } };
    render(<LanguagePreviews alert={long} channels={['sms']} label="Preview" />);
    expect(
      within(group('English'))
        .getAllByRole('term')
        .map((t) => t.textContent),
    ).toEqual(['SMS']);
    expect(group('Chinese (中文)')).toHaveTextContent(`Too long for SMS (at most ${SMS_MAX_SEGMENTS} segments)`);
    expect(smsTooLong(readerPreviews(long, 'alert'), ['sms'])).toBe(true);
    expect(smsTooLong(readerPreviews(long, 'alert'), ['push'])).toBe(false);
    expect(smsTooLong(readerPreviews(flood, 'update'), ['sms'])).toBe(false);
  });
});

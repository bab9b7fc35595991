import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { readFeedDocument } from './cap-message';
import { primaryInfo, toBeaconTranslations } from './cap-translations';

describe('a CAP message in two languages', () => {
  const xml = readFileSync(join(__dirname, 'fixtures', 'flood-two-languages.xml'), 'utf8')
    .replaceAll('{{SENT}}', '2026-11-25T10:00:00+00:00')
    .replaceAll('{{EXPIRES}}', '2026-11-25T16:00:00+00:00');
  const { infos } = readFeedDocument(xml).messages[0].message;

  it('keeps every <info>; the English one is the alert text', () => {
    expect(infos.map((i) => i.language)).toEqual(['en-US', 'es-US']);
    expect(primaryInfo(infos).headline).toBe('Flash flooding expected along Salt River crossings');
    expect(primaryInfo([infos[1], infos[0]]).language).toBe('en-US');
  });

  it("maps the other languages to Beacon's translations shape (the wiring point for the translations branch)", () => {
    expect(toBeaconTranslations(infos, primaryInfo(infos))).toEqual({
      es: {
        title: 'Se esperan inundaciones en los cruces del río Salt',
        message: 'Lluvias intensas río arriba cubrirán los cruces bajos esta noche.\n\nNo cruce nunca un paso inundado.',
      },
    });
  });
});

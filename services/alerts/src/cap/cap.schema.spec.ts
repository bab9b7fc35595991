import { capMessage, CapSite } from './cap.xml';
import type { PublicAlertRow } from './cap.repository';
import { validateCap } from '../testing/cap-schema';
import { strictParse } from '../testing/strict-xml';
import { publicAlertRow } from '../testing/public-alert-row';

/**
 * Each message type Beacon publishes (Alert, Update, Cancel, and the all-clear, an Update with responseType AllClear)
 * keeps the CAP 1.2 schema's element order, cardinalities and value lists, read with a strict parser. The checker
 * itself is shown to refuse what the schema refuses, so a pass means something.
 */

const ID = publicAlertRow().id;
const site = new CapSite('https://alerts.example.org');

const row = (over: Partial<PublicAlertRow> = {}): PublicAlertRow => publicAlertRow({ lat: 33.64, lng: -111.98, ...over });

const MESSAGES: [string, PublicAlertRow, string][] = [
  ['an Alert', row(), 'Alert'],
  ['an Update', row({ version: 2, revisions: [[2, '2026-11-25T10:20:00.000Z']] }), 'Update'],
  [
    'a Cancel after two updates',
    row({
      status: 'cancelled',
      version: 3,
      revisions: [
        [2, '2026-11-25T10:20:00.000Z'],
        [3, '2026-11-25T10:40:00.000Z'],
      ],
      ended_at: new Date('2026-11-25T11:00:00Z'),
    }),
    'Cancel',
  ],
  [
    'an all-clear',
    row({
      status: 'all_clear',
      version: 2,
      all_clear_at: new Date('2026-11-25T10:50:00Z'),
      all_clear_message: 'The driver was stopped.',
      revisions: [[2, '2026-11-25T10:50:00.000Z']],
    }),
    'Update',
  ],
  [
    'an all-clear of a drawn area in two languages',
    row({
      status: 'all_clear',
      version: 3,
      all_clear_at: new Date('2026-11-25T11:10:00Z'),
      all_clear_message: null,
      radius_km: null,
      area_polygon: '((-111.99,33.6),(-111.95,33.6),(-111.97,33.65))',
      translations: { es: { title: 'Conductor en sentido contrario en la Loop 101', message: 'Hacia el norte cerca de Tatum.' } },
      revisions: [
        [2, '2026-11-25T10:30:00.000Z'],
        [3, '2026-11-25T11:10:00.000Z'],
      ],
    }),
    'Update',
  ],
  [
    'an Alert of several areas (polygons and circles, one across the antimeridian, one unnamed) in two languages',
    row({
      radius_km: null,
      location_name: null,
      area_parts: [
        {
          type: 'polygon',
          points: [
            [44.99, -65.56],
            [45.03, -65.1],
            [44.8, -64.92],
            [44.55, -65.08],
          ],
          description: 'Annapolis County',
        },
        {
          type: 'polygon',
          points: [
            [-16, 179],
            [-19, 179],
            [-17.5, 181.5],
          ],
          description: 'Lau Islands',
        },
        { type: 'circle', lat: 44.65, lng: -63.57, radiusKm: 12.5, description: 'Halifax' },
        { type: 'circle', lat: 46.24, lng: -63.13, radiusKm: 3 },
      ],
      translations: { fr: { title: 'Avis de gel', message: 'Du gel est prévu cette nuit.' } },
    }),
    'Alert',
  ],
  [
    'a medium alert without an area or expiry',
    row({ severity: 'medium', lat: null, lng: null, radius_km: null, location_name: null, expires_at: null }),
    'Alert',
  ],
];

describe('CAP 1.2 structure of every message type', () => {
  it.each(MESSAGES)('%s is valid CAP 1.2', (_name, alert, msgType) => {
    const xml = capMessage(alert, site);
    expect(validateCap(xml)).toEqual([]);
    expect(strictParse(xml).get('msgType')).toEqual([msgType]);
  });

  it('a later message references every earlier one, oldest first, and has an identifier of its own', () => {
    const texts = strictParse(capMessage(MESSAGES[2][1], site));
    expect(texts.get('identifier')).toEqual([`${ID}-cancel`]);
    expect(texts.get('sent')).toEqual(['2026-11-25T11:00:00+00:00']);
    expect(texts.get('references')).toEqual([
      `beacon@alerts.example.org,${ID},2026-11-25T10:00:00+00:00 beacon@alerts.example.org,${ID}-v2,2026-11-25T10:20:00+00:00 beacon@alerts.example.org,${ID}-v3,2026-11-25T10:40:00+00:00`,
    ]);
  });

  it('an all-clear in two languages says it in each, with the drawn area in each <info>', () => {
    const texts = strictParse(capMessage(MESSAGES.find(([name]) => name.includes('two languages'))![1], site));
    expect(texts.get('language')).toEqual(['en-US', 'es-US']);
    expect(texts.get('headline')).toEqual(['All clear: Wrong-way driver on Loop 101', 'Fin de la alerta: Conductor en sentido contrario en la Loop 101']);
    expect(texts.get('description')).toEqual(['The danger has passed. This alert has ended.', 'El peligro ha pasado. Esta alerta ha terminado.']);
    expect(texts.get('polygon')).toEqual(['33.6,-111.99 33.6,-111.95 33.65,-111.97 33.6,-111.99', '33.6,-111.99 33.6,-111.95 33.65,-111.97 33.6,-111.99']);
    expect(texts.get('responseType')).toEqual(['AllClear', 'AllClear']);
  });

  it('an area of several parts is one <area> per part in each <info>, each with its <areaDesc>', () => {
    const texts = strictParse(capMessage(MESSAGES.find(([name]) => name.includes('several areas'))![1], site));
    const names = ['Annapolis County', 'Lau Islands', 'Halifax', 'Area of the alert'];
    expect(texts.get('areaDesc')).toEqual([...names, ...names]);
    expect(texts.get('polygon')).toHaveLength(4);
    expect(texts.get('circle')).toEqual(['44.65,-63.57 12.5', '46.24,-63.13 3', '44.65,-63.57 12.5', '46.24,-63.13 3']);
  });

  it('the all-clear says AllClear, urgency Past, and its own words', () => {
    const texts = strictParse(capMessage(MESSAGES[3][1], site));
    expect(texts.get('identifier')).toEqual([`${ID}-v2`]);
    expect(texts.get('responseType')).toEqual(['AllClear']);
    expect(texts.get('urgency')).toEqual(['Past']);
    expect(texts.get('headline')).toEqual(['All clear: Wrong-way driver on Loop 101']);
    expect(texts.get('description')).toEqual(['The driver was stopped.']);
  });

  describe('the checker refuses what the schema refuses', () => {
    const valid = capMessage(row(), site);
    it.each([
      ['elements out of order', valid.replace(/(<status>Actual<\/status>)(\s*)(<msgType>Alert<\/msgType>)/, '$3$2$1'), 'not allowed'],
      ['a value off the list', valid.replace('<msgType>Alert</msgType>', '<msgType>Notice</msgType>'), 'not a CAP msgType'],
      ['a missing required element', valid.replace(/<certainty>Observed<\/certainty>/, ''), '<certainty> is required'],
      ['a dateTime in Z form', valid.replace(/<sent>([^<]+)\+00:00<\/sent>/, '<sent>$1Z</sent>'), 'not a CAP dateTime'],
      ['an Update without references', valid.replace('<msgType>Alert</msgType>', '<msgType>Update</msgType>'), 'must reference'],
      ['an open polygon', valid.replace(/<circle>[^<]+<\/circle>/, '<polygon>1,1 2,2 3,1</polygon>'), 'the first equal to the last'],
      ['a polygon after a circle', valid.replace(/(<circle>[^<]+<\/circle>)/, '$1<polygon>1,1 2,2 3,1 1,1</polygon>'), 'not allowed'],
      ['an <area> without <areaDesc>', valid.replace(/<\/area>/, '</area><area><circle>1,1 2</circle></area>'), '<areaDesc> is required'],
    ])('%s', (_name, xml, problem) => {
      expect(xml).not.toBe(valid);
      expect(validateCap(xml).join('\n')).toContain(problem);
    });
  });
});

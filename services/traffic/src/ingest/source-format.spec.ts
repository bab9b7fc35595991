import camerasV1 from './fixtures/cameras-v1.json';
import eventsV1 from './fixtures/events-v1.json';
import { categorize, dateOf, parseCameras, parseEvents, severityOf, SourcePayloadError } from './source-format';

describe('parseCameras (511 format)', () => {
  it('maps a camera to our columns and picks the first enabled view', () => {
    const { items, rejected } = parseCameras(camerasV1);
    expect(rejected).toBe(0);
    expect(items).toHaveLength(4);
    expect(items[0]).toEqual({
      sourceId: '101',
      sourceName: 'ADOT',
      roadway: 'I-10',
      direction: 'Eastbound',
      description: 'I-10 EB at 7th St (MP 144.0)',
      lat: 33.4621,
      lng: -112.0652,
      imageUrl: 'https://images.example.test/cams/101.jpg',
      views: [{ id: '1011', url: 'https://images.example.test/cams/101.jpg', status: 'Enabled', description: 'I-10 EB 7th St' }],
    });
    expect(items[2].imageUrl).toBe('https://images.example.test/cams/103.jpg'); // the disabled first view is skipped
  });

  it('drops unsafe image URLs, placeholder coordinates and unknown directions', () => {
    const sr51 = parseCameras(camerasV1).items[3];
    expect(sr51.imageUrl).toBeNull();
    expect(sr51.views[0].url).toBeNull();
    expect([sr51.lat, sr51.lng]).toEqual([null, null]);
    expect(sr51.direction).toBeNull();
  });

  it('accepts root-relative image URLs only when asked (our own seed)', () => {
    const cam = [{ Id: 1, Roadway: 'I-10', Views: [{ Id: 1, Url: '/api/traffic/camera-images/x.svg', Status: 'Enabled' }] }];
    expect(parseCameras(cam).items[0].imageUrl).toBeNull();
    expect(parseCameras(cam, { allowRelativeUrls: true }).items[0].imageUrl).toBe('/api/traffic/camera-images/x.svg');
    const protocolRelative = [{ Id: 1, Roadway: 'I-10', Views: [{ Id: 1, Url: '//evil.example/x.svg', Status: 'Enabled' }] }];
    expect(parseCameras(protocolRelative, { allowRelativeUrls: true }).items[0].imageUrl).toBeNull();
  });

  it('falls back to the location for a missing roadway and rejects entries without an id', () => {
    const { items, rejected, reasons } = parseCameras([{ Id: 7, Location: 'SR 143 at University Dr' }, { Roadway: 'I-10' }, { Id: 8, Roadway: 'I-17' }]);
    expect(items.map((c) => c.roadway)).toEqual(['SR 143 at University Dr', 'I-17']);
    expect(rejected).toBe(1);
    expect(reasons[0]).toMatch(/without an Id/);
  });

  it('keeps one row per id when the source repeats one', () => {
    const { items } = parseCameras([
      { Id: 1, Roadway: 'Old' },
      { Id: 1, Roadway: 'New' },
    ]);
    expect(items).toEqual([expect.objectContaining({ sourceId: '1', roadway: 'New' })]);
  });

  it.each([
    ['an object', { cameras: [] }],
    ['a string', 'Service Unavailable'],
    ['null', null],
  ])('refuses a payload that is %s', (_what, payload) => {
    expect(() => parseCameras(payload)).toThrow(SourcePayloadError);
  });

  it('refuses a list that is mostly junk', () => {
    expect(() => parseCameras([1, 'x', { Id: 1, Roadway: 'I-10' }])).toThrow(/2 of 3 camera entries are unusable/);
  });

  it('accepts a well-formed empty list', () => {
    expect(parseCameras([])).toEqual({ items: [], rejected: 0, reasons: [] });
  });
});

describe('parseEvents (511 format)', () => {
  it('maps type, severity, dates, coordinates and defaults', () => {
    const { items } = parseEvents(eventsV1);
    expect(items[0]).toMatchObject({
      sourceId: 'ERS-9001',
      type: 'Crash',
      category: 'incident',
      severity: 'high',
      roadway: 'I-10',
      direction: 'East',
      startDate: new Date(1767224100 * 1000),
      lat: 33.4098,
      lng: -111.976,
    });
    expect(items[1]).toMatchObject({ category: 'roadwork', severity: 'low', endDate: null, type: 'Lane Restriction' });
    expect(items[2]).toMatchObject({ category: 'closure', fullClosure: true });
    expect(items[3]).toMatchObject({
      type: 'Traffic Incident',
      description: 'Traffic incident reported',
      severity: 'medium',
      lat: null,
      lng: null,
    });
  });
});

describe('severityOf', () => {
  it.each([
    ['Major', 'high'],
    ['high', 'high'],
    ['Severe', 'high'],
    ['Minor', 'low'],
    ['LOW', 'low'],
    ['Moderate', 'medium'],
    ['Unknown', 'medium'],
    ['', 'medium'],
    [undefined, 'medium'],
    [3, 'medium'],
  ])('%p is %s', (value, expected) => expect(severityOf(value)).toBe(expected));
});

describe('categorize', () => {
  it.each([
    ['accidentsAndIncidents', 'crash', 'incident'],
    ['accidentsAndIncidents', 'wrongWayDriver', 'incident'],
    ['roadwork', 'laneRestriction', 'roadwork'],
    ['closures', 'rampClosure', 'closure'],
    ['specialEvents', 'concert', 'special_event'],
    ['weatherEvents', 'flooding', 'weather'],
    ['closures', 'blowingDust', 'weather'],
    ['generalInfo', null, 'other'],
    [null, null, 'incident'],
    ['serviceNotice', 'police activity', 'other'], // 'ice' inside a word is not weather
  ])('%s / %s is %s', (type, sub, expected) => expect(categorize(type, sub)).toBe(expected));
});

describe('dateOf', () => {
  it('reads Unix seconds, milliseconds, ISO and .NET dates', () => {
    const t = Date.UTC(2026, 0, 1);
    expect(dateOf(t / 1000)?.getTime()).toBe(t);
    expect(dateOf(t)?.getTime()).toBe(t);
    expect(dateOf(String(t / 1000))?.getTime()).toBe(t);
    expect(dateOf('2026-01-01T00:00:00Z')?.getTime()).toBe(t);
    expect(dateOf(`/Date(${t})/`)?.getTime()).toBe(t);
  });

  it.each([null, undefined, '', 'soon', 0, -5, 12, true, {}])('treats %p as unknown', (value) => {
    expect(dateOf(value)).toBeNull();
  });
});

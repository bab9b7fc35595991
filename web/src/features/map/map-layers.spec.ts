import { DEFAULT_MAP_CENTER } from '@/common/map';
import type { Camera } from '@/features/traffic/traffic.api';
import type { TrafficEvent } from './map.api';
import {
  ALL_LAYERS,
  DANGER_ZONES,
  DEFAULT_VISIBILITY,
  eventLayer,
  filterCameras,
  LAYER_GROUPS,
  layerCounts,
  MAP_RELOAD_MS,
  MAP_ZOOM,
  NO_LAYERS,
  searchFeedback,
  SEVERITY_STYLE,
  severityLevel,
  verifiedReportLabel,
} from './map-layers';

const cam = (roadway: string, description: string | null, direction: string | null): Camera => ({
  cameraId: roadway + description + direction,
  roadway,
  description,
  direction,
  lat: 33.4,
  lng: -112,
  imageUrl: 'https://x.test/a.jpg',
  lastUpdated: null,
});
const event = (category: TrafficEvent['category'], severity: TrafficEvent['severity'] = 'high'): TrafficEvent => ({
  id: `${category}-${severity}`,
  type: 'Crash',
  category,
  severity,
  lat: 33.4,
  lng: -112,
  description: 'x',
  roadway: null,
  direction: null,
  fullClosure: false,
  startDate: null,
  endDate: null,
});

describe('map constants', () => {
  it('centres on Phoenix at zoom 11 and reloads every 120 s', () => {
    expect(DEFAULT_MAP_CENTER).toEqual({ lat: 33.4484, lng: -112.074 });
    expect(MAP_ZOOM).toBe(11);
    expect(MAP_RELOAD_MS).toBe(120_000);
  });

  it('has the four fixed danger zones with the spec radii and severities', () => {
    expect(DANGER_ZONES.map((z) => [z.name.defaultMessage, z.radiusM, z.severity])).toEqual([
      ['High Crime Area', 2000, 'high'],
      ['School Zone', 500, 'medium'],
      ['Construction Zone', 1500, 'medium'],
      ['Event Impact Zone', 1000, 'low'],
    ]);
    expect(DANGER_ZONES[0]).toMatchObject({ lat: 33.4484, lng: -112.074 }); // downtown
  });

  it('colours high red, medium amber, low yellow with fill opacity 0.7, 0.5, 0.3', () => {
    expect(SEVERITY_STYLE.high).toMatchObject({ color: '#dc2626', fillOpacity: 0.7 });
    expect(SEVERITY_STYLE.medium).toMatchObject({ color: '#f59e0b', fillOpacity: 0.5 });
    expect(SEVERITY_STYLE.low).toMatchObject({ color: '#eab308', fillOpacity: 0.3 });
  });

  it.each([
    ['high', 'high'],
    ['low', 'low'],
    ['medium', 'medium'],
    ['major', 'medium'],
    ['', 'medium'],
    [null, 'medium'],
  ])('treats severity %p as %s', (value, expected) => expect(severityLevel(value)).toBe(expected));
});

describe('layers', () => {
  it('has four groups: traffic, safety, infrastructure, weather', () => {
    expect(LAYER_GROUPS.map((g) => g.id)).toEqual(['traffic', 'safety', 'infrastructure', 'weather']);
  });

  it('starts with every layer on except roadwork; Clear All turns all off', () => {
    expect(ALL_LAYERS.filter((id) => !DEFAULT_VISIBILITY[id])).toEqual(['roadwork']);
    expect(ALL_LAYERS.every((id) => NO_LAYERS[id] === false)).toBe(true);
  });

  it('puts each event category on its layer', () => {
    expect(
      ['incident', 'closure', 'roadwork', 'special_event', 'weather', 'other'].map((c) => eventLayer({ category: c as TrafficEvent['category'] })),
    ).toEqual(['incidents', 'closures', 'roadwork', 'specialEvents', 'weather', 'otherEvents']);
    expect(eventLayer({ category: 'something-new' as TrafficEvent['category'] })).toBe('otherEvents');
  });

  it('counts from the data', () => {
    const counts = layerCounts({
      cameras: [cam('I-10', null, null), cam('I-17', null, null)],
      events: [event('incident'), event('incident', 'low'), event('roadwork'), event('weather')],
      incidents: [{ id: 'v1', type: 'Crash', description: 'x', locationName: null, lat: 33.4, lng: -112, createdAt: '2024-01-01T00:00:00Z' }],
    });
    expect(counts).toEqual({
      incidents: 2,
      closures: 0,
      roadwork: 1,
      specialEvents: 0,
      otherEvents: 0,
      verifiedReports: 1,
      dangerZones: 4,
      cameras: 2,
      weather: 1,
    });
  });
});

describe('filterCameras', () => {
  const cameras = [cam('I-10', 'I-10 EB at 7th St', 'Eastbound'), cam('Loop 101', 'Loop 101 SB at Shea Blvd', 'Southbound'), cam('SR 51', null, null)];

  it.each([
    ['', 3],
    ['   ', 3],
    ['i-10', 1],
    ['LOOP', 1],
    ['shea', 1],
    ['SHEA BLVD', 1],
    ['bound', 2],
    ['eastbound', 1],
    ['sr 51', 1],
    ['nowhere', 0],
  ])('%p matches %i cameras (roadway, description, direction; any case)', (query, n) => {
    expect(filterCameras(cameras, query)).toHaveLength(n);
  });
});

describe('verifiedReportLabel', () => {
  it('names a verified report by its type label, not the stored type', () => {
    expect(verifiedReportLabel({ type: 'wrong-way-driver', locationName: 'SR 51 at Glendale Ave' })).toBe(
      'Verified report: Wrong-way Driver at SR 51 at Glendale Ave',
    );
    expect(verifiedReportLabel({ type: 'traffic-hazard', locationName: null })).toBe('Verified report: Traffic Hazard');
  });
});

describe('searchFeedback', () => {
  it('speaks up only when a search has been made, the cameras are in and none matched', () => {
    expect(searchFeedback('', 0, true)).toBeNull();
    expect(searchFeedback('   ', 0, true)).toBeNull();
    expect(searchFeedback('I-17', 3, true)).toBeNull();
    expect(searchFeedback('I-17', 0, false)).toBeNull();
    expect(searchFeedback(' Zzyzx ', 0, true)).toBe(
      'No cameras match \u201cZzyzx\u201d. Search by road (I-17), direction (northbound) or cross street (Camelback).',
    );
  });
});

import { render, screen } from '@testing-library/react';
import { AlertAreaMap, areaText } from './AlertAreaMap';
import { alertSummary } from './test-utils';

// Leaflet does not run in jsdom: the map says what it was asked to draw.
jest.mock('./AreaMap', () => ({
  __esModule: true,
  default: ({
    label,
    center,
    radiusKm,
    polygon,
  }: {
    label: string;
    center: { lat: number; lng: number } | null;
    radiusKm: number;
    polygon?: [number, number][] | null;
  }) => (
    <p>{polygon ? `${label}: polygon ${polygon.map((p) => p.join(' ')).join(' | ')}` : `${label}: circle ${radiusKm} km at ${center?.lat},${center?.lng}`}</p>
  ),
}));

const TRIANGLE: [number, number][] = [
  [33.5, -112.1],
  [33.4, -112.2],
  [33.4, -112.0],
  [33.5, -112.1],
];

describe("an alert's area on its detail pages", () => {
  it('draws a polygon alert as its polygon, and says how many corners it has', async () => {
    const a = alertSummary({ title: 'Chemical spill', lat: 33.43, lng: -112.1, area: { type: 'polygon', points: TRIANGLE } });
    render(<AlertAreaMap alert={a} />);
    expect(await screen.findByText('Area of the alert Chemical spill: polygon 33.5 -112.1 | 33.4 -112.2 | 33.4 -112 | 33.5 -112.1')).toBeInTheDocument();
    expect(areaText(a)).toBe('Drawn area (polygon with 3 corners)');
  });

  it('draws a circle alert as its circle', async () => {
    const a = alertSummary({ title: 'Flood', lat: 33.4, lng: -112, radiusKm: 5, area: { type: 'circle', lat: 33.4, lng: -112, radiusKm: 5 } });
    render(<AlertAreaMap alert={a} />);
    expect(await screen.findByText('Area of the alert Flood: circle 5 km at 33.4,-112')).toBeInTheDocument();
    expect(areaText(a)).toBe('5 km around 33.4, -112');
  });

  it('draws nothing for an alert to everyone', () => {
    const { container } = render(<AlertAreaMap alert={alertSummary({ area: null })} />);
    expect(container).toBeEmptyDOMElement();
    expect(areaText(alertSummary({ area: null }))).toBe('Everywhere');
  });
});

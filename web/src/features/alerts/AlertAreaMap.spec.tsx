import { render, screen } from '@testing-library/react';
import type { AlertAreaPart } from '@beacon/contracts';
import { inLanguage } from '@/test/in-language';
import { AlertAreaMap, areaText } from './AlertAreaMap';
import { alertSummary } from './test-utils';

// Leaflet does not run in jsdom: the map says what it was asked to draw, and what describes it.
jest.mock('./AreaMap', () => ({
  __esModule: true,
  default: ({ label, parts, describedBy }: { label: string; parts?: AlertAreaPart[] | null; describedBy?: string }) => (
    <div role="region" aria-label={label} aria-describedby={describedBy}>
      <ol aria-label="drawn">
        {(parts ?? []).map((p, i) => (
          <li key={i}>{p.type === 'polygon' ? `polygon ${p.points.map((c) => c.join(' ')).join(' | ')}` : `circle ${p.radiusKm} km at ${p.lat},${p.lng}`}</li>
        ))}
      </ol>
    </div>
  ),
}));

const TRIANGLE: [number, number][] = [
  [33.5, -112.1],
  [33.4, -112.2],
  [33.4, -112.0],
  [33.5, -112.1],
];
const SQUARE: [number, number][] = [
  [45.0, -64.6],
  [45.0, -64.4],
  [45.2, -64.4],
  [45.2, -64.6],
  [45.0, -64.6],
];

const drawn = async () => (await screen.findByRole('list', { name: 'drawn' })).querySelectorAll('li');

describe("an alert's area on its detail pages", () => {
  it('draws a polygon alert as its polygon, and says how many corners it has', async () => {
    const a = alertSummary({ title: 'Chemical spill', lat: 33.43, lng: -112.1, area: { type: 'polygon', points: TRIANGLE } });
    render(<AlertAreaMap alert={a} />);
    expect(await screen.findByText('polygon 33.5 -112.1 | 33.4 -112.2 | 33.4 -112 | 33.5 -112.1')).toBeInTheDocument();
    expect(screen.getByRole('region', { name: 'Area of the alert Chemical spill' })).toHaveAccessibleDescription('Drawn area (polygon with 3 corners)');
    expect(areaText(a)).toBe('Drawn area (polygon with 3 corners)');
  });

  it('draws a circle alert as its circle', async () => {
    const a = alertSummary({ title: 'Flood', lat: 33.4, lng: -112, radiusKm: 5, area: { type: 'circle', lat: 33.4, lng: -112, radiusKm: 5 } });
    render(<AlertAreaMap alert={a} />);
    expect(await screen.findByText('circle 5 km at 33.4,-112')).toBeInTheDocument();
    expect(areaText(a)).toBe('5 km around 33.4, -112');
  });

  it('draws every part of a multi-part alert, and says them by name (or number) to screen readers', async () => {
    const a = alertSummary({
      title: 'Frost advisory',
      area: {
        type: 'multi',
        parts: [
          { type: 'polygon', points: SQUARE, description: 'Kings County' },
          { type: 'polygon', points: TRIANGLE, description: 'Hants County' },
          { type: 'circle', lat: 45.1, lng: -64.2, radiusKm: 8 },
        ],
      },
    });
    render(<AlertAreaMap alert={a} />);
    expect([...(await drawn())].map((li) => li.textContent)).toEqual([
      'polygon 45 -64.6 | 45 -64.4 | 45.2 -64.4 | 45.2 -64.6 | 45 -64.6',
      'polygon 33.5 -112.1 | 33.4 -112.2 | 33.4 -112 | 33.5 -112.1',
      'circle 8 km at 45.1,-64.2',
    ]);
    const words = '3 areas: Kings County, Hants County, and Part 3';
    expect(screen.getByRole('region', { name: 'Area of the alert Frost advisory' })).toHaveAccessibleDescription(words);
    expect(areaText(a)).toBe(words);
  });

  it('names a one-part area by its description', () => {
    const a = alertSummary({ area: { type: 'circle', lat: 45.1, lng: -64.2, radiusKm: 8, description: 'Wolfville' } });
    expect(areaText(a)).toBe('Wolfville: 8 km around 45.1, -64.2');
  });

  it('says the parts in the reader’s language', async () => {
    const a = alertSummary({
      title: 'Helada',
      area: {
        type: 'multi',
        parts: [
          { type: 'polygon', points: SQUARE, description: 'Kings County' },
          { type: 'circle', lat: 45.1, lng: -64.2, radiusKm: 8 },
        ],
      },
    });
    render(inLanguage('es', <AlertAreaMap alert={a} />));
    expect(await screen.findByRole('region', { name: 'Área de la alerta Helada' })).toHaveAccessibleDescription('2 zonas: Kings County y Parte 2');
  });

  it('draws nothing for an alert to everyone', () => {
    const { container } = render(<AlertAreaMap alert={alertSummary({ area: null })} />);
    expect(container).toBeEmptyDOMElement();
    expect(areaText(alertSummary({ area: null }))).toBe('Everywhere');
  });
});

import type { ReactNode } from 'react';
import { FormattedMessage } from 'react-intl';
import { detectLocation, type Position } from '@/common/geolocation';
import { Field } from './Field';

type Axis = 'lat' | 'lng';

const RANGE: Record<Axis, number> = { lat: 90, lng: 180 };

interface AreaPickerShellProps {
  /** The coordinate inputs are `${id}-lat` and `${id}-lng`. */
  id: string;
  /** The map the point is picked on (a feature's map: common/ knows no map). */
  map: ReactNode;
  labels: Record<Axis, string>;
  /** The coordinates as shown: as typed, or the point's. */
  values: Record<Axis, string | number>;
  onType: (axis: Axis, text: string) => void;
  describedBy: string;
  /** Left out, the inputs say nothing of their validity. */
  invalid?: boolean;
  /** Between the coordinates and the buttons: what is wrong with them. */
  children?: ReactNode;
  onLocate: (position: Position) => void;
  /** The button that removes the point, while there is one to remove. */
  clear: { label: string; onClear: () => void } | null;
}

/** A point on a map, its coordinates typed or picked, "Use my location" and a button that clears it. */
export function AreaPickerShell({ id, map, labels, values, onType, describedBy, invalid, children, onLocate, clear }: AreaPickerShellProps) {
  return (
    <>
      {map}
      <div className="grid-2 coords">
        {(['lat', 'lng'] as const).map((axis) => (
          <Field key={axis} id={`${id}-${axis}`} label={labels[axis]}>
            <input
              id={`${id}-${axis}`}
              type="number"
              step="any"
              min={-RANGE[axis]}
              max={RANGE[axis]}
              value={values[axis]}
              onChange={(e) => onType(axis, e.target.value)}
              aria-invalid={invalid}
              aria-describedby={describedBy}
            />
          </Field>
        ))}
      </div>
      {children}
      <div className="row">
        <button
          type="button"
          className="btn btn-outline btn-sm"
          onClick={async () => {
            const p = await detectLocation();
            if (p) onLocate(p);
          }}
        >
          <FormattedMessage id="common.areaPicker.useMyLocation" defaultMessage="Use my location" />
        </button>
        {clear && (
          <button type="button" className="btn btn-ghost btn-sm" onClick={clear.onClear}>
            {clear.label}
          </button>
        )}
      </div>
    </>
  );
}

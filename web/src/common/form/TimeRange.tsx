import type { ReactNode } from 'react';
import { Field } from './Field';

interface TimeRangeProps {
  /** The inputs are `${id}-start` and `${id}-end`. */
  id: string;
  startLabel: string;
  endLabel: string;
  start: string;
  end: string;
  onChange: (range: { start: string; end: string }) => void;
  /** A note under both inputs. */
  children?: ReactNode;
}

/** Two times of day side by side, from and until. */
export function TimeRange({ id, startLabel, endLabel, start, end, onChange, children }: TimeRangeProps) {
  return (
    <div className="grid-2">
      <Field id={`${id}-start`} label={startLabel}>
        <input id={`${id}-start`} type="time" value={start} onChange={(e) => onChange({ start: e.target.value, end })} />
      </Field>
      <Field id={`${id}-end`} label={endLabel}>
        <input id={`${id}-end`} type="time" value={end} onChange={(e) => onChange({ start, end: e.target.value })} />
      </Field>
      {children}
    </div>
  );
}

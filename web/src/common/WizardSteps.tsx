import './wizard.css';
import { Check } from 'lucide-react';

/** A wizard's steps: the finished ones ticked (and said so to screen readers), the current one marked. */
export function WizardSteps({ steps, current }: { steps: readonly string[]; current: number }) {
  return (
    <ol className="wizard-steps" aria-label="Steps">
      {steps.map((name, i) => (
        <li key={name} className={i < current ? 'done' : i === current ? 'current' : ''} aria-current={i === current ? 'step' : undefined}>
          <span className="step-dot" aria-hidden="true">
            {i < current ? <Check aria-hidden="true" size={14} /> : i + 1}
          </span>
          {name}
          {i < current && <span className="visually-hidden"> (completed)</span>}
        </li>
      ))}
    </ol>
  );
}

import './wizard.css';
import { Check } from 'lucide-react';
import { FormattedMessage, useIntl } from 'react-intl';

/** A wizard's steps: the finished ones ticked (and said so to screen readers), the current one marked. */
export function WizardSteps({ steps, current }: { steps: readonly string[]; current: number }) {
  const intl = useIntl();
  return (
    <ol className="wizard-steps" aria-label={intl.formatMessage({ id: 'common.wizardSteps.label', defaultMessage: 'Steps' })}>
      {steps.map((name, i) => (
        <li key={name} className={i < current ? 'done' : i === current ? 'current' : ''} aria-current={i === current ? 'step' : undefined}>
          <span className="step-dot" aria-hidden="true">
            {i < current ? <Check aria-hidden="true" size={14} /> : intl.formatNumber(i + 1)}
          </span>
          {name}
          {i < current && (
            <span className="visually-hidden">
              {/* the leading space keeps the step's name and this apart when read aloud */}
              <FormattedMessage id="common.wizardSteps.completed" defaultMessage=" (completed)" />
            </span>
          )}
        </li>
      ))}
    </ol>
  );
}

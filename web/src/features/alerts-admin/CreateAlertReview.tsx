import { CATEGORY_LABELS, LANGUAGE_LABELS, alertLanguages } from '@beacon/contracts';
import { Siren } from 'lucide-react';
import { formatDateTime } from '@/common/time';
import { SeverityBadge } from '@/features/alerts';
import { hasErrors, parseRadius, type FieldErrors, type WizardValues } from './alert-form';
import { SmsSegmentsTable } from './AlertLanguages';
import { channelList } from './ui';

interface ReviewProps {
  values: WizardValues;
  errors: FieldErrors;
  serverError: string | null;
  preview: boolean;
  onPreview: (on: boolean) => void;
}

/** The last step of the Create Alert wizard above its confirmation: the summary, the preview, and what stops the send. */
export function ReviewStep({ values, errors, serverError, preview, onPreview }: ReviewProps) {
  return (
    <>
      <AlertSummary values={values} />
      <label className="checkbox preview-toggle">
        <input type="checkbox" checked={preview} onChange={(e) => onPreview(e.target.checked)} /> Preview
      </label>
      {preview && <AlertPreview values={values} />}
      {hasErrors(errors) && (
        <div role="alert" className="field-error">
          {Object.values(errors)
            .filter(Boolean)
            .map((m) => (
              <p key={m}>{m}</p>
            ))}
        </div>
      )}
      {serverError && (
        <p role="alert" className="field-error">
          {serverError}
        </p>
      )}
    </>
  );
}

function AlertSummary({ values }: { values: WizardValues }) {
  const radius = parseRadius(values.radiusKm);
  return (
    <dl className="review" aria-label="Alert summary">
      <dt>Title</dt>
      <dd>{values.title}</dd>
      <dt>Message</dt>
      <dd className="pre-wrap">{values.message}</dd>
      <dt>Severity</dt>
      <dd>
        <SeverityBadge severity={values.severity} />
      </dd>
      <dt>Category</dt>
      <dd>{CATEGORY_LABELS[values.category]}</dd>
      <dt>Channels</dt>
      <dd>{channelList(values.channels)}</dd>
      <dt>Location</dt>
      <dd>{values.locationName.trim() || '—'}</dd>
      <dt>Area</dt>
      <dd>
        {values.areaType === 'polygon'
          ? `Polygon with ${values.points.length} points`
          : values.lat !== null && values.lng !== null
            ? `${radius} km around ${values.lat}, ${values.lng}`
            : 'Everywhere (no area chosen)'}
      </dd>
      <dt>Expires</dt>
      <dd>{values.expiresAt ? formatDateTime(values.expiresAt) : 'Never'}</dd>
      <dt>Languages</dt>
      <dd>
        {alertLanguages(values)
          .map((l) => LANGUAGE_LABELS[l])
          .join(', ')}
      </dd>
      <dt>Reminder</dt>
      <dd>{values.remindAfterMinutes ? `After ${values.remindAfterMinutes} minutes, to those who have not answered` : 'None'}</dd>
    </dl>
  );
}

/** How the alert looks on a recipient's screen. */
function AlertPreview({ values }: { values: WizardValues }) {
  return (
    <div className="alert-preview" aria-label="Alert preview" role="region">
      <div className={`user-alert sev-${values.severity}`}>
        <div className="row-between">
          <strong>
            <Siren aria-hidden="true" focusable="false" size={16} /> {values.title}
          </strong>
          <SeverityBadge severity={values.severity} />
        </div>
        <p className="pre-wrap">{values.message}</p>
        <p className="small muted">
          {CATEGORY_LABELS[values.category]}
          {values.locationName.trim() && ` · ${values.locationName.trim()}`} · Just now
        </p>
      </div>
      {values.channels.includes('sms') && <SmsSegmentsTable title={values.title} message={values.message} translations={values.translations} />}
    </div>
  );
}

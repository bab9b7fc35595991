import { ALERT_LIMITS, CATEGORY_LABELS, LANGUAGE_LABELS, alertLanguages, areaParts } from '@beacon/contracts';
import { Siren } from 'lucide-react';
import { useIntl } from 'react-intl';
import { formatDateTime } from '@/common/time';
import { LazyAreaMap, SeverityBadge } from '@/features/alerts';
import {
  areaIsEmpty,
  areaOfParts,
  areaPartsOf,
  hasErrors,
  localTimeZone,
  parseRadius,
  translationsBody,
  type FieldErrors,
  type WizardValues,
} from './alert-form';
import { AreaSummary } from './AreaDrawing';
import { LanguagePreviews } from './LanguagePreviews';
import { GROUP_WORDS, groupText } from './target-groups';
import { channelList } from './ui';

interface ReviewProps {
  values: WizardValues;
  errors: FieldErrors;
  serverError: string | null;
  preview: boolean;
  onPreview: (on: boolean) => void;
}

/**
 * The last step of the Create Alert wizard above its confirmation: the summary, the area on the map, what each
 * language and channel will carry, the in-app preview, and what stops the send.
 */
export function ReviewStep({ values, errors, serverError, preview, onPreview }: ReviewProps) {
  return (
    <>
      <AlertSummary values={values} />
      <AreaOnMap values={values} />
      <h3>What people will receive</h3>
      <LanguagePreviews
        alert={{ ...values, translations: translationsBody(values.translations) }}
        channels={values.channels}
        label="Message per language and channel"
      />
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
  const intl = useIntl();
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
        <AreaSummary values={values} />
      </dd>
      <dt className="group-term">{intl.formatMessage(GROUP_WORDS.title)}</dt>
      <dd>
        {values.groups.length ? (
          <ul aria-label={intl.formatMessage(GROUP_WORDS.chosenLabel)} className="group-names">
            {values.groups.map((g) => (
              <li key={g.id}>{groupText(intl, g)}</li>
            ))}
          </ul>
        ) : (
          intl.formatMessage(GROUP_WORDS.noneChosen)
        )}
      </dd>
      <dt>When</dt>
      <dd>{values.when === 'later' ? `Scheduled for ${formatDateTime(values.sendAt)} (${localTimeZone(new Date(values.sendAt))})` : 'Now'}</dd>
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
    </div>
  );
}

/** Where it applies, drawn: the circle, the polygon or every part on a map; for everyone, a reminder that there is no area. */
function AreaOnMap({ values }: { values: WizardValues }) {
  const label = 'The alert area on the map';
  if (values.areaType === 'everyone') {
    return (
      <p className="audience-warning">
        <strong>No area:</strong> this alert goes to everyone, everywhere.
      </p>
    );
  }
  // No area, its contact groups only (issue #42): the summary says so, there is nothing to draw.
  if (areaIsEmpty(values)) return null;
  const parts = areaPartsOf(values);
  if (parts.length > 1) {
    const area = areaOfParts(parts);
    return <LazyAreaMap center={null} radiusKm={0} parts={area ? areaParts(area) : []} label={label} height={240} />;
  }
  if (values.areaType === 'polygon') return <LazyAreaMap center={null} radiusKm={0} polygon={values.points} label={label} height={240} />;
  if (values.lat === null || values.lng === null) return null;
  return (
    <LazyAreaMap
      center={{ lat: values.lat, lng: values.lng }}
      radiusKm={parseRadius(values.radiusKm) ?? ALERT_LIMITS.radiusKmDefault}
      label={label}
      height={240}
    />
  );
}

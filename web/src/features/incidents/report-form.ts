import type { IntlShape } from 'react-intl';
import { INCIDENT_LIMITS, INCIDENT_TYPES, type IncidentType } from '@beacon/contracts';
import type { ApiError } from '@/app/api';
import { currentIntl, defineMessages, formatDistance } from '@/i18n';
import { incidentText } from './labels';

/** The wizard's steps, named in the reader's language where they are shown. */
export const REPORT_STEPS = defineMessages({
  details: { id: 'incidents.report.stepDetails', defaultMessage: 'Incident Details' },
  location: { id: 'incidents.report.stepLocation', defaultMessage: 'Location' },
  review: { id: 'incidents.report.stepReview', defaultMessage: 'Review' },
});
export const REPORT_STEP_COUNT = Object.keys(REPORT_STEPS).length;

export interface LatLng {
  lat: number;
  lng: number;
}

export interface ReportValues {
  type: IncidentType | '';
  description: string;
  photo: File | null;
  location: LatLng | null;
  locationName: string;
}

export type ReportField = 'type' | 'description' | 'photo' | 'location';
export type ReportErrors = Partial<Record<ReportField, string>>;

export const EMPTY_REPORT: ReportValues = { type: '', description: '', photo: null, location: null, locationName: '' };

/**
 * The browser's first look at a photo (size, declared type). The server decides for real, from the bytes:
 * a renamed file passes here and is refused there with the same message.
 */
export function photoError(file: File | null, tooLarge: () => string = () => incidentText('photoTooLarge')): string | undefined {
  if (!file) return undefined;
  if (!file.type.startsWith('image/')) return incidentText('invalidImage');
  if (file.size > INCIDENT_LIMITS.photoMaxBytes) return tooLarge();
  return undefined;
}

export function descriptionError(description: string): string | undefined {
  const length = description.trim().length;
  if (length < INCIDENT_LIMITS.descriptionMin) return incidentText('descriptionMin');
  if (length > INCIDENT_LIMITS.descriptionMax) return incidentText('descriptionMax');
  return undefined;
}

/** The field errors that keep the wizard on `step` (empty: the step is complete). */
export function validateReportStep(step: number, v: ReportValues): ReportErrors {
  const errors: ReportErrors = {};
  if (step === 0) {
    if (!v.type || !(INCIDENT_TYPES as readonly string[]).includes(v.type)) errors.type = incidentText('typeRequired');
    const d = descriptionError(v.description);
    if (d) errors.description = d;
    const p = photoError(v.photo);
    if (p) errors.photo = p;
  }
  if (step === 1 && !v.location) errors.location = incidentText('locationRequired');
  return errors;
}

/** The toast for a step that cannot be left yet. */
export function stepMessage(step: number): string {
  return incidentText(step === 1 ? 'stepLocation' : 'stepFields');
}

/** Six decimals is about 10 cm. */
export const roundCoordinate = (n: number) => Math.round(n * 1e6) / 1e6;

/**
 * A possible duplicate's distance: metres, as the duplicate rule counts them (within 50 m), in the reader's number
 * format ('30 m', '30 米'); farther ones in the reader's road unit.
 */
export function duplicateDistance(metres: number, intl: IntlShape = currentIntl()): string {
  return metres < 1000 ? intl.formatNumber(Math.round(metres), { style: 'unit', unit: 'meter' }) : formatDistance(metres / 1000, intl);
}

/**
 * What the wizard says when the server refuses the report or its photo: the server's own message when the refusal is
 * about what was sent (a 4xx: the photo is not an image, a limit reached, a field refused), since sending the same
 * again cannot succeed; the spec's "Failed to submit incident. Please try again." only when the service failed (5xx)
 * and a retry may work. A lost connection says so.
 */
export function submitFailureMessage(err: unknown): string {
  const apiError = err as Partial<ApiError> | undefined;
  if (!apiError?.message || typeof apiError.statusCode !== 'number') return incidentText('submitFailed');
  if (apiError.code === 'network_error') return apiError.message;
  return apiError.statusCode >= 400 && apiError.statusCode < 500 ? apiError.message : incidentText('submitFailed');
}

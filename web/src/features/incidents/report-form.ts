import { INCIDENT_LIMITS, INCIDENT_MESSAGES, INCIDENT_TYPES, type IncidentType } from '@beacon/contracts';
import type { ApiError } from '@/app/api';

export const REPORT_STEPS = ['Incident Details', 'Location', 'Review'] as const;

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
export function photoError(file: File | null, tooLarge: string = INCIDENT_MESSAGES.photoTooLarge): string | undefined {
  if (!file) return undefined;
  if (!file.type.startsWith('image/')) return INCIDENT_MESSAGES.invalidImage;
  if (file.size > INCIDENT_LIMITS.photoMaxBytes) return tooLarge;
  return undefined;
}

export function descriptionError(description: string): string | undefined {
  const length = description.trim().length;
  if (length < INCIDENT_LIMITS.descriptionMin) return INCIDENT_MESSAGES.descriptionMin;
  if (length > INCIDENT_LIMITS.descriptionMax) return INCIDENT_MESSAGES.descriptionMax;
  return undefined;
}

/** The field errors that keep the wizard on `step` (empty: the step is complete). */
export function validateReportStep(step: number, v: ReportValues): ReportErrors {
  const errors: ReportErrors = {};
  if (step === 0) {
    if (!v.type || !(INCIDENT_TYPES as readonly string[]).includes(v.type)) errors.type = INCIDENT_MESSAGES.typeRequired;
    const d = descriptionError(v.description);
    if (d) errors.description = d;
    const p = photoError(v.photo);
    if (p) errors.photo = p;
  }
  if (step === 1 && !v.location) errors.location = INCIDENT_MESSAGES.locationRequired;
  return errors;
}

/** The toast for a step that cannot be left yet. */
export function stepMessage(step: number): string {
  return step === 1 ? INCIDENT_MESSAGES.stepLocation : INCIDENT_MESSAGES.stepFields;
}

/** Six decimals is about 10 cm. */
export const roundCoordinate = (n: number) => Math.round(n * 1e6) / 1e6;

export function formatDistance(metres: number): string {
  return metres < 1000 ? `${Math.round(metres)} m` : `${(metres / 1000).toFixed(1)} km`;
}

/**
 * What the wizard says when the server refuses the report or its photo: the server's own message when the refusal is
 * about what was sent (a 4xx: the photo is not an image, a limit reached, a field refused), since sending the same
 * again cannot succeed; the spec's "Failed to submit incident. Please try again." only when the service failed (5xx)
 * and a retry may work. A lost connection says so.
 */
export function submitFailureMessage(err: unknown): string {
  const apiError = err as Partial<ApiError> | undefined;
  if (!apiError?.message || typeof apiError.statusCode !== 'number') return INCIDENT_MESSAGES.submitFailed;
  if (apiError.code === 'network_error') return apiError.message;
  return apiError.statusCode >= 400 && apiError.statusCode < 500 ? apiError.message : INCIDENT_MESSAGES.submitFailed;
}

import type { IntlShape } from 'react-intl';
import { INCIDENT_LIMITS, INCIDENT_STATUSES, INCIDENT_TYPES, type IncidentStatus, type IncidentType } from '@beacon/contracts';
import { currentIntl, defineMessages } from '@/i18n';

/**
 * The incident vocabulary as the web shows it, in the reader's language: contracts' INCIDENT_TYPE_INFO labels and
 * descriptions, the statuses, and INCIDENT_MESSAGES (same keys; the server still answers with the contracts' English).
 * Other screens (dashboard, map) name incident types and statuses with these.
 */
const TYPE_NAMES = defineMessages({
  'traffic-hazard': { id: 'incidents.type.trafficHazard', defaultMessage: 'Traffic Hazard' },
  crime: { id: 'incidents.type.crime', defaultMessage: 'Crime' },
  accident: { id: 'incidents.type.accident', defaultMessage: 'Accident' },
  'wrong-way-driver': { id: 'incidents.type.wrongWayDriver', defaultMessage: 'Wrong-way Driver' },
  other: { id: 'incidents.type.other', defaultMessage: 'Other' },
});

const TYPE_DESCRIPTIONS = defineMessages({
  'traffic-hazard': { id: 'incidents.typeDescription.trafficHazard', defaultMessage: 'Debris, potholes, stalled vehicles or other road dangers' },
  crime: { id: 'incidents.typeDescription.crime', defaultMessage: 'Suspicious activity, theft, vandalism or violence' },
  accident: { id: 'incidents.typeDescription.accident', defaultMessage: 'Vehicle collisions or injuries on the road' },
  'wrong-way-driver': { id: 'incidents.typeDescription.wrongWayDriver', defaultMessage: 'A vehicle driving against traffic' },
  other: { id: 'incidents.typeDescription.other', defaultMessage: 'Any other safety concern' },
});

const STATUS_NAMES = defineMessages({
  pending: { id: 'incidents.status.pending', defaultMessage: 'Pending' },
  verified: { id: 'incidents.status.verified', defaultMessage: 'Verified' },
  rejected: { id: 'incidents.status.rejected', defaultMessage: 'Rejected' },
  resolved: { id: 'incidents.status.resolved', defaultMessage: 'Resolved' },
});

/** The wizard's texts from contracts' INCIDENT_MESSAGES, under the same keys. */
export const INCIDENT_TEXTS = defineMessages({
  typeRequired: { id: 'incidents.messages.typeRequired', defaultMessage: 'Please select an incident type' },
  descriptionMin: { id: 'incidents.messages.descriptionMin', defaultMessage: 'Description must be at least {min} characters' },
  descriptionMax: { id: 'incidents.messages.descriptionMax', defaultMessage: 'Description must be less than {max} characters' },
  photoTooLarge: { id: 'incidents.messages.photoTooLarge', defaultMessage: 'Photo must be less than 5MB' },
  invalidImage: { id: 'incidents.messages.invalidImage', defaultMessage: 'Please select a valid image file' },
  locationRequired: { id: 'incidents.messages.locationRequired', defaultMessage: 'Please select a location for the incident' },
  stepFields: { id: 'incidents.messages.stepFields', defaultMessage: 'Please fill in all required fields' },
  stepLocation: { id: 'incidents.messages.stepLocation', defaultMessage: 'Please select a location on the map' },
  submitted: { id: 'incidents.messages.submitted', defaultMessage: 'Incident reported successfully!' },
  submitFailed: { id: 'incidents.messages.submitFailed', defaultMessage: 'Failed to submit incident. Please try again.' },
});

const isIncidentType = (type: string): type is IncidentType => (INCIDENT_TYPES as readonly string[]).includes(type);

/** A stored type's name; a value from a newer release shows as it is. */
export const incidentTypeName = (type: string, intl: IntlShape = currentIntl()): string => (isIncidentType(type) ? intl.formatMessage(TYPE_NAMES[type]) : type);

export const incidentTypeDescription = (type: string, intl: IntlShape = currentIntl()): string =>
  isIncidentType(type) ? intl.formatMessage(TYPE_DESCRIPTIONS[type]) : '';

/** A status's name ('Pending'); an unknown value shows as it is. */
export const incidentStatusName = (status: string, intl: IntlShape = currentIntl()): string =>
  (INCIDENT_STATUSES as readonly string[]).includes(status) ? intl.formatMessage(STATUS_NAMES[status as IncidentStatus]) : status;

/** One of INCIDENT_TEXTS in the reader's language, with the limits it names. */
export const incidentText = (key: keyof typeof INCIDENT_TEXTS, intl: IntlShape = currentIntl()): string =>
  intl.formatMessage(INCIDENT_TEXTS[key], { min: INCIDENT_LIMITS.descriptionMin, max: INCIDENT_LIMITS.descriptionMax });

/*
 * The traffic API's wire types, shared by the traffic service and the web app. Dates travel as ISO 8601 strings;
 * the service's rows carry them as Date (see `Rows` below), which JSON turns into exactly these strings.
 */

/** How a 511 event is grouped on the map, from the source's event type and sub-type. */
export const EVENT_CATEGORIES = ['incident', 'closure', 'roadwork', 'special_event', 'weather', 'other'] as const;
export type EventCategory = (typeof EVENT_CATEGORIES)[number];

export type EventSeverity = 'high' | 'medium' | 'low';

/** A camera as GET /api/traffic/cameras returns it (spec entity Camera). */
export interface Camera {
  cameraId: string;
  roadway: string;
  direction: string | null;
  description: string | null;
  lat: number | null;
  lng: number | null;
  imageUrl: string | null;
  /** The source's last report; null when unknown. */
  lastUpdated: string | null;
}

/** An active traffic event with coordinates (GET /api/traffic/events/active). */
export interface TrafficEvent {
  id: string;
  type: string;
  category: EventCategory;
  severity: EventSeverity;
  lat: number;
  lng: number;
  description: string;
  roadway: string | null;
  direction: string | null;
  fullClosure: boolean;
  startDate: string | null;
  endDate: string | null;
}

/** A wire type as the service holds it before serialising: the named ISO-string fields as Date. */
export type Rows<T, K extends keyof T> = Omit<T, K> & { [P in K]: Date | Extract<T[P], null> };

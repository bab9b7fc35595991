import { api } from '@/app/api';
import type { Camera } from '@/features/traffic/traffic.api';

export type EventCategory = 'incident' | 'closure' | 'roadwork' | 'special_event' | 'weather' | 'other';

/** An active traffic event with coordinates (GET /api/traffic/events/active). */
export interface TrafficEvent {
  id: string;
  type: string;
  category: EventCategory;
  /** high, low, or anything else (treated as medium). */
  severity: string;
  lat: number;
  lng: number;
  description: string;
  roadway: string | null;
  direction: string | null;
  fullClosure: boolean;
  startDate: string | null;
  endDate: string | null;
}

/** A community report verified in the last hours (GET /api/incidents/incidents/verified). */
export interface VerifiedIncident {
  id: string;
  type: string;
  description: string;
  locationName: string | null;
  lat: number;
  lng: number;
  createdAt: string;
}

/** Every read the map makes is public: an anonymous visitor gets the same data. */
export const mapApi = api.injectEndpoints({
  endpoints: (build) => ({
    mapCameras: build.query<Camera[], void>({
      query: () => 'api/traffic/cameras/located',
      transformResponse: (res: { items: Camera[] }) => res.items,
      providesTags: ['Camera'],
    }),
    activeTrafficEvents: build.query<TrafficEvent[], void>({
      query: () => 'api/traffic/events/active',
      transformResponse: (res: { items: TrafficEvent[] }) => res.items,
      providesTags: ['TrafficEvent'],
    }),
    verifiedIncidents: build.query<VerifiedIncident[], number>({
      query: (hours) => `api/incidents/incidents/verified?hours=${hours}`,
      transformResponse: (res: { items: VerifiedIncident[] }) => res.items,
      providesTags: ['Incident'],
    }),
  }),
});

export const { useMapCamerasQuery, useActiveTrafficEventsQuery, useVerifiedIncidentsQuery } = mapApi;

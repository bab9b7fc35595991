import { api } from '@/app/api';
import type { Camera, EventCategory, TrafficEvent } from '@beacon/contracts';

export type { EventCategory, TrafficEvent };

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

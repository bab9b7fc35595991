import { api } from '@/app/api';
import type { Incident, IncidentType, PossibleDuplicate } from '@beacon/contracts';

export interface NewIncident {
  type: IncidentType;
  description: string;
  locationName?: string | null;
  lat: number;
  lng: number;
  photoPath?: string | null;
}

/** Report Incident's calls; the photo goes first, its server-side path then rides with the report. */
export const incidentsApi = api.injectEndpoints({
  endpoints: (build) => ({
    createIncident: build.mutation<Incident, NewIncident>({
      query: (body) => ({ url: 'api/incidents/incidents', method: 'POST', body }),
      invalidatesTags: ['Incident', 'Activity'],
    }),
    possibleDuplicates: build.query<{ items: PossibleDuplicate[] }, { type: IncidentType; lat: number; lng: number }>({
      query: ({ type, lat, lng }) => `api/incidents/incidents/possible-duplicates?type=${encodeURIComponent(type)}&lat=${lat}&lng=${lng}`,
      keepUnusedDataFor: 0,
    }),
  }),
});

export const { useCreateIncidentMutation, usePossibleDuplicatesQuery } = incidentsApi;

import { api } from '@/app/api';
import type { Incident, IncidentType, PossibleDuplicate, UploadBucket, UploadResult } from '@beacon/contracts';

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
    uploadImage: build.mutation<UploadResult, { bucket: UploadBucket; file: File }>({
      query: ({ bucket, file }) => {
        const body = new FormData();
        body.append('file', file);
        return { url: `api/incidents/uploads/${bucket}`, method: 'POST', body };
      },
    }),
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

export const { useUploadImageMutation, useCreateIncidentMutation, usePossibleDuplicatesQuery } = incidentsApi;

import { api } from '@/app/api';

/** A camera as GET /api/traffic/cameras returns it (spec entity Camera). */
export interface Camera {
  cameraId: string;
  roadway: string;
  direction: string | null;
  description: string | null;
  lat: number | null;
  lng: number | null;
  imageUrl: string | null;
  /** ISO date-time of the source's last report; null when unknown. */
  lastUpdated: string | null;
}

export const trafficApi = api.injectEndpoints({
  endpoints: (build) => ({
    /** Every current camera, ordered by roadway ascending (public: no token needed). */
    listCameras: build.query<Camera[], void>({
      query: () => 'api/traffic/cameras',
      transformResponse: (res: { items: Camera[] }) => res.items,
      providesTags: ['Camera'],
    }),
  }),
});

export const { useLazyListCamerasQuery } = trafficApi;

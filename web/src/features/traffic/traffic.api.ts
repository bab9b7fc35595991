import type { Camera } from '@beacon/contracts';
import { api } from '@/app/api';

export type { Camera };

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

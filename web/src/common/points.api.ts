import { api } from '@/app/api';

/** The signed-in user's community points and level (served by the incidents service's community module). */
export interface MyPoints {
  points: number;
  level: number;
  levelName: string;
  nextLevelAt: number | null;
  /** 0-100 within the current level. */
  progress: number;
  /** False until the user's first points ('New Member'). */
  hasRecord?: boolean;
}

// Shared by the dashboard sidebar, the dashboard home and the community sidebar.
export const pointsApi = api.injectEndpoints({
  endpoints: (build) => ({
    getMyPoints: build.query<MyPoints, void>({
      query: () => 'api/incidents/community/points/me',
      providesTags: ['Points'],
    }),
  }),
});

export const { useGetMyPointsQuery } = pointsApi;

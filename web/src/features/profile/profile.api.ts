import { api } from '@/app/api';
import type { AlertPreferences, Language, NotificationMethods, Severity } from '@beacon/contracts';
import type { RootState } from '@/app/store';
import { withFirstLanguage } from '@/features/alerts/language';

/** The part of PUT /api/alerts/me/preferences the profile screen changes (a partial update). */
export interface ProfilePreferenceChange {
  methods?: Partial<Pick<NotificationMethods, 'push' | 'email'>>;
  severityThreshold?: Severity;
  language?: Language | null;
}

// Named for this screen so they never clash with the alerts feature's own endpoints; the shared
// 'Preferences' tag keeps both screens' caches in step.
export const profileApi = api.injectEndpoints({
  endpoints: (build) => ({
    profilePreferences: build.query<AlertPreferences, void>({
      query: () => 'api/alerts/me/preferences',
      providesTags: ['Preferences'],
    }),
    saveProfilePreferences: build.mutation<AlertPreferences, ProfilePreferenceChange>({
      // The first save carries the browser's language, as from the alert screens (withFirstLanguage).
      async queryFn(body, { getState }, _extra, baseQuery) {
        const saved = profileApi.endpoints.profilePreferences.select()(getState() as RootState).data;
        const res = await baseQuery({ url: 'api/alerts/me/preferences', method: 'PUT', body: withFirstLanguage(body, saved) });
        return res.error ? { error: res.error } : { data: res.data as AlertPreferences };
      },
      // Show the saved result at once; other screens refetch through the tag.
      async onQueryStarted(_change, { dispatch, queryFulfilled }) {
        const { data } = await queryFulfilled.catch(() => ({ data: undefined }));
        if (data) dispatch(profileApi.util.upsertQueryData('profilePreferences', undefined, data));
      },
      invalidatesTags: ['Preferences'],
    }),
  }),
});

export const { useProfilePreferencesQuery, useSaveProfilePreferencesMutation } = profileApi;

import type { UploadBucket, UploadResult } from '@beacon/contracts';
import { api } from '@/app/api';

/** Photo uploads, shared by incident reports and community posts. */
const uploadsApi = api.injectEndpoints({
  endpoints: (build) => ({
    uploadImage: build.mutation<UploadResult, { bucket: UploadBucket; file: File }>({
      query: ({ bucket, file }) => {
        const body = new FormData();
        body.append('file', file);
        return { url: `api/incidents/uploads/${bucket}`, method: 'POST', body };
      },
    }),
  }),
});

export const { useUploadImageMutation } = uploadsApi;

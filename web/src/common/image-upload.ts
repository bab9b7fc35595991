import toast from 'react-hot-toast';
import type { UploadBucket } from '@beacon/contracts';
import type { ApiError } from '@/app/api';
import { useUploadImageMutation } from './uploads.api';

/** What the image inputs offer in the file dialog: only a hint, the server judges the bytes. */
export const IMAGE_ACCEPT = 'image/jpeg,image/png,image/webp,image/gif';

/**
 * The file just chosen in `input`, if `check` finds no problem with it. Otherwise the problem is toasted,
 * the input cleared (so choosing the same file again still fires a change) and the result is null.
 */
export function acceptedImage(input: HTMLInputElement, check: (file: File | null) => string | undefined): File | null {
  const file = input.files?.[0] ?? null;
  const problem = check(file);
  if (!problem) return file;
  toast.error(problem);
  input.value = '';
  return null;
}

/**
 * Uploads a form's optional image to `bucket`; the function it gives resolves the stored path (null when
 * there is no image). When the server refuses the file itself (it judges the bytes: not an image, too large),
 * `onRefused` gets its reason to show on the image field; the upload still rejects, so the form stops there.
 */
export function useImageUpload(bucket: UploadBucket, onRefused: (message: string) => void) {
  const [uploadImage] = useUploadImageMutation();
  return async (file: File | null): Promise<string | null> => {
    if (!file) return null;
    try {
      return (await uploadImage({ bucket, file }).unwrap()).path;
    } catch (err) {
      const apiError = err as ApiError;
      if (apiError.code === 'invalid_image' || apiError.code === 'file_too_large') onRefused(apiError.message);
      throw err;
    }
  };
}

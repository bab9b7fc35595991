import toast from 'react-hot-toast';
import type { UploadBucket } from '@beacon/contracts';
import { errorMessage, type ApiError } from '@/app/api';
import { currentIntl, defineMessages } from '@/i18n';
import { useUploadImageMutation } from './uploads.api';

/** The photo formats the server stores (it decodes and re-encodes only these). */
export const ACCEPTED_IMAGE_TYPES = ['image/jpeg', 'image/png', 'image/webp', 'image/gif'] as const;

/** What the image inputs offer in the file dialog: only a hint, the file's bytes are checked on selection. */
export const IMAGE_ACCEPT = ACCEPTED_IMAGE_TYPES.join(',');

const NOT_AN_IMAGE = defineMessages({
  message: { id: 'common.imageUpload.notAnImage', defaultMessage: 'Please select a valid image file. This file is not a JPEG, PNG, WebP or GIF photo.' },
}).message;

/**
 * Shown at selection for a file whose bytes are not one of ACCEPTED_IMAGE_TYPES, whatever its name or declared type
 * says (a text file renamed `.png`, an iPhone HEIC photo). It begins with the spec's own wording. This is its English;
 * the person reads it in their language.
 */
export const NOT_AN_IMAGE_MESSAGE = NOT_AN_IMAGE.defaultMessage;

/** file-type recognises every accepted format within its first bytes (a PNG by its IHDR chunk header). */
const SNIFF_BYTES = 4100;

/** The first `bytes` of a file. FileReader, not Blob.arrayBuffer(): Safari before 14 (and jsdom) lack the latter. */
function readHead(file: Blob, bytes: number): Promise<Uint8Array> {
  return new Promise((resolve, reject) => {
    const reader = new FileReader();
    reader.onload = () => resolve(new Uint8Array(reader.result as ArrayBuffer));
    reader.onerror = () => reject(reader.error ?? new Error('The file could not be read'));
    reader.readAsArrayBuffer(file.slice(0, bytes));
  });
}

/**
 * Whether the file's content (its magic bytes, read by file-type) is a JPEG, PNG, WebP or GIF image; the name and
 * the type the browser derived from it are not looked at. A file that cannot be read is not an image either.
 * file-type is loaded on the first check, so pages without a photo field never download it; its browser entry point
 * (`file-type/core`: the package's root offers Jest's require() no entry at all).
 */
export async function isAcceptedImage(file: Blob): Promise<boolean> {
  try {
    const [{ fileTypeFromBuffer }, head] = await Promise.all([import('file-type/core'), readHead(file, SNIFF_BYTES)]);
    const found = await fileTypeFromBuffer(head);
    return !!found && (ACCEPTED_IMAGE_TYPES as readonly string[]).includes(found.mime);
  } catch {
    return false;
  }
}

/**
 * The file just chosen in `input`, if `check` (size, declared type) finds no problem with it and its bytes are an
 * accepted image. Otherwise the problem is toasted and handed to `onProblem` (to show on the field), the input is
 * cleared (so choosing the same file again still fires a change) and the result is null. The server checks the
 * bytes again: this only spares the person a refusal after the whole form is filled in.
 */
export async function acceptedImage(
  input: HTMLInputElement,
  check: (file: File | null) => string | undefined,
  onProblem?: (message: string) => void,
): Promise<File | null> {
  const file = input.files?.[0] ?? null;
  const problem = check(file) ?? (file && !(await isAcceptedImage(file)) ? currentIntl().formatMessage(NOT_AN_IMAGE) : undefined);
  if (!problem) return file;
  toast.error(problem);
  onProblem?.(problem);
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
      if (apiError.code === 'invalid_image' || apiError.code === 'file_too_large') onRefused(errorMessage(apiError, apiError.message));
      throw err;
    }
  };
}

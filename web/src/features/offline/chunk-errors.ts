/**
 * The browsers' and Vite's words for a page's code that could not be downloaded: Chromium "Failed to fetch dynamically
 * imported module", Safari "Importing a module script failed", Firefox "error loading dynamically imported module",
 * Vite "Unable to preload CSS".
 */
const CHUNK_FAILURE = /dynamically imported module|importing a module script failed|unable to preload css|failed to load module script/i;

/** Whether an error is a page's code failing to download (offline, or a build replaced since), not a bug in the page. */
export function isChunkLoadError(error: unknown): boolean {
  return error instanceof Error && (error.name === 'ChunkLoadError' || CHUNK_FAILURE.test(error.message));
}

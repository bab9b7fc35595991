import { useRouteError } from 'react-router-dom';
import { RouteErrorScreen } from '@/common/ErrorBoundary';
import { isChunkLoadError } from './chunk-errors';
import { OfflineScreen } from './OfflineScreen';

/**
 * The router's error screen, except for code that could not be downloaded (offline): that is not an error of the
 * app, and gets the offline page (issue #40). Pages catch their own (sectionPage); this is for whatever else loads late.
 */
export function RouteErrorOrOffline() {
  return isChunkLoadError(useRouteError()) ? <OfflineScreen /> : <RouteErrorScreen />;
}

import { useCallback, useEffect, useReducer, useRef } from 'react';
import toast from 'react-hot-toast';
import { currentIntl } from '@/i18n';
import { CAMERAS_AUTO_REFRESH_MS } from './camera-rules';
import { CAMERA_FEED_MESSAGES, cameraFeedReducer, initialCameraFeed, LOAD_FAILED_MESSAGE } from './camera-feed';
import { useLazyListCamerasQuery } from './traffic.api';

/**
 * Loads the cameras on mount, on Refresh and on Try Again, and every 60 s while the list is non-empty and no
 * refresh is running. A refresh keeps the list visible (with a refreshing flag) and replaces it only by the rule
 * in camera-rules.ts.
 */
export function useCameraFeed() {
  const [fetchCameras] = useLazyListCamerasQuery();
  const [state, dispatch] = useReducer(cameraFeedReducer, initialCameraFeed);
  const mounted = useRef(true);

  const fetchList = useCallback(
    async (kind: 'load' | 'refresh', announceFailure: boolean) => {
      dispatch({ type: kind });
      try {
        const cameras = await fetchCameras(undefined, false).unwrap();
        if (mounted.current) dispatch({ type: 'received', cameras, at: Date.now() });
      } catch {
        if (!mounted.current) return;
        dispatch({ type: 'failed', message: LOAD_FAILED_MESSAGE });
        if (announceFailure) toast.error(currentIntl().formatMessage(CAMERA_FEED_MESSAGES.refreshFailed));
      }
    },
    [fetchCameras],
  );

  useEffect(() => {
    mounted.current = true;
    void fetchList('load', false);
    return () => {
      mounted.current = false;
    };
  }, [fetchList]);

  const canAutoRefresh = state.status === 'ready' && state.cameras.length > 0 && !state.refreshing;
  useEffect(() => {
    if (!canAutoRefresh) return;
    const timer = setTimeout(() => void fetchList('refresh', false), CAMERAS_AUTO_REFRESH_MS);
    return () => clearTimeout(timer);
  }, [canAutoRefresh, state.generation, fetchList]);

  return {
    ...state,
    refresh: useCallback(() => void fetchList('refresh', true), [fetchList]),
    retry: useCallback(() => void fetchList('load', false), [fetchList]),
  };
}

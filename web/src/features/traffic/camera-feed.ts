import type { MessageDescriptor } from 'react-intl';
import { defineMessages } from '@/i18n';
import type { Camera } from './traffic.api';
import { shouldReplaceList } from './camera-rules';

/** The cameras page's states (spec section 4): loading, then error or loaded; refreshes keep the list visible. */
export interface CameraFeedState {
  status: 'loading' | 'error' | 'ready';
  /** The list on screen. */
  cameras: Camera[];
  /** Said in the reader's language when shown. */
  error: MessageDescriptor | null;
  refreshing: boolean;
  /** When the list on screen was last replaced (ms), for the 5-minute rule. */
  lastReplacedAt: number | null;
  /** Counts completed refreshes; cards use it to give failed images another try. */
  generation: number;
}

export type CameraFeedAction =
  { type: 'load' } | { type: 'refresh' } | { type: 'received'; cameras: Camera[]; at: number } | { type: 'failed'; message: MessageDescriptor };

export const CAMERA_FEED_MESSAGES = defineMessages({
  loadFailed: { id: 'traffic.cameras.loadFailed', defaultMessage: 'Failed to load cameras. Please try again.' },
  refreshFailed: { id: 'traffic.cameras.refreshFailed', defaultMessage: 'Could not refresh the cameras. Showing the last loaded list.' },
});

export const LOAD_FAILED_MESSAGE = CAMERA_FEED_MESSAGES.loadFailed;

export const initialCameraFeed: CameraFeedState = {
  status: 'loading',
  cameras: [],
  error: null,
  refreshing: false,
  lastReplacedAt: null,
  generation: 0,
};

export function cameraFeedReducer(state: CameraFeedState, action: CameraFeedAction): CameraFeedState {
  switch (action.type) {
    case 'load':
      return { ...initialCameraFeed, generation: state.generation };
    case 'refresh':
      return state.status === 'ready' ? { ...state, refreshing: true } : state;
    case 'received': {
      if (state.status !== 'ready') {
        return {
          ...state,
          status: 'ready',
          cameras: action.cameras,
          error: null,
          refreshing: false,
          lastReplacedAt: action.at,
          generation: state.generation + 1,
        };
      }
      const replace = shouldReplaceList(state.cameras, action.cameras, state.lastReplacedAt, action.at);
      return {
        ...state,
        refreshing: false,
        cameras: replace ? action.cameras : state.cameras,
        lastReplacedAt: replace ? action.at : state.lastReplacedAt,
        generation: state.generation + 1,
      };
    }
    case 'failed':
      // a failed refresh keeps the cameras on screen; only a failed first load shows the error screen
      return state.status === 'ready' ? { ...state, refreshing: false } : { ...state, status: 'error', error: action.message, refreshing: false };
  }
}

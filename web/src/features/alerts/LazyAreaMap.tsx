import { lazy, Suspense } from 'react';
import { useIntl } from 'react-intl';
import { Spinner } from '@/common/Spinner';
import type { AreaMapProps } from './AreaMap';

const AreaMap = lazy(() => import('./AreaMap'));

/** The area map, loaded on first use so Leaflet stays out of the screens that do not show a map. */
export function LazyAreaMap(props: AreaMapProps) {
  const intl = useIntl();
  return (
    <Suspense
      fallback={
        <div className="area-map area-map-loading" style={{ height: props.height ?? 320 }}>
          <Spinner label={intl.formatMessage({ id: 'alerts.map.loading', defaultMessage: 'Loading map' })} />
        </div>
      }
    >
      <AreaMap {...props} />
    </Suspense>
  );
}

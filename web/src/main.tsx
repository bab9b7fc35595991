import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import 'leaflet/dist/leaflet.css';
import './common/styles.css';
import { App } from './app/App';
import { loadAppConfig } from './app/config';
import { makeStore } from './app/store';
import { registerServiceWorker } from './app/service-worker';

const store = makeStore();
loadAppConfig().then((config) => {
  createRoot(document.getElementById('root')!).render(
    <StrictMode>
      <App store={store} config={config} />
    </StrictMode>,
  );
});
registerServiceWorker();

import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import 'leaflet/dist/leaflet.css';
import './common/styles.css';
import { App } from './app/App';
import { loadAppConfig } from './app/config';
import { makeStore } from './app/store';
import { registerServiceWorker } from './app/service-worker';
import { I18nProvider, initialUiLanguage, loadCatalogue } from './i18n';

const store = makeStore();
const language = initialUiLanguage();
// The first paint waits for the reader's catalogue: no English flash, no shift when it arrives.
Promise.all([loadAppConfig(), loadCatalogue(language)]).then(([config, messages]) => {
  createRoot(document.getElementById('root')!).render(
    <StrictMode>
      <I18nProvider initial={{ language, messages }}>
        <App store={store} config={config} />
      </I18nProvider>
    </StrictMode>,
  );
});
registerServiceWorker();

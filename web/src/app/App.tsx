import { useMemo } from 'react';
import { Provider } from 'react-redux';
import { createBrowserRouter, RouterProvider } from 'react-router-dom';
import { Toaster } from 'react-hot-toast';
import { ErrorBoundary } from '@/common/ErrorBoundary';
import { AuthListener } from '@/features/auth/AuthListener';
import { LanguageSync } from '@/features/language';
import { OfflineKeeper } from '@/features/offline';
import { AppConfigContext, type AppConfig } from './config';
import { captureInstallPrompt } from './install-prompt';
import { routes } from './routes';
import type { AppStore } from './store';

// the browser's install offer comes once, early: caught before anything renders, offered at the first run
captureInstallPrompt();

export function App({ store, config }: { store: AppStore; config: AppConfig }) {
  const router = useMemo(() => createBrowserRouter(routes), []);
  return (
    <ErrorBoundary>
      <Provider store={store}>
        <AppConfigContext.Provider value={config}>
          <AuthListener />
          <LanguageSync />
          <OfflineKeeper />
          <RouterProvider router={router} />
          <Toaster position="top-right" toastOptions={{ duration: 4000 }} />
        </AppConfigContext.Provider>
      </Provider>
    </ErrorBoundary>
  );
}

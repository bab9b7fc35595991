import { useMemo } from 'react';
import { Provider } from 'react-redux';
import { createBrowserRouter, RouterProvider } from 'react-router-dom';
import { Toaster } from 'react-hot-toast';
import { ErrorBoundary } from '@/common/ErrorBoundary';
import { AuthListener } from '@/features/auth/AuthListener';
import { AppConfigContext, type AppConfig } from './config';
import { routes } from './routes';
import type { AppStore } from './store';

export function App({ store, config }: { store: AppStore; config: AppConfig }) {
  const router = useMemo(() => createBrowserRouter(routes), []);
  return (
    <ErrorBoundary>
      <Provider store={store}>
        <AppConfigContext.Provider value={config}>
          <AuthListener />
          <RouterProvider router={router} />
          <Toaster position="top-right" toastOptions={{ duration: 4000 }} />
        </AppConfigContext.Provider>
      </Provider>
    </ErrorBoundary>
  );
}

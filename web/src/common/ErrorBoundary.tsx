import { Component, useEffect, type ErrorInfo, type ReactNode } from 'react';
import { FormattedMessage } from 'react-intl';
import { useRouteError } from 'react-router-dom';

/** The error screen of the spec (part 1, "Error screen"): one markup for both ways a render can fail. */
export function ErrorScreen({ onReload }: { onReload?: () => void }) {
  return (
    <main className="error-screen" role="alert">
      <h1>
        <FormattedMessage id="common.errorScreen.title" defaultMessage="Something went wrong." />
      </h1>
      <p>
        <FormattedMessage id="common.errorScreen.text" defaultMessage="We encountered an unexpected error. Please try refreshing the page." />
      </p>
      <button type="button" className="btn btn-primary" onClick={() => (onReload ?? (() => window.location.reload()))()}>
        <FormattedMessage id="common.errorScreen.refresh" defaultMessage="Refresh Page" />
      </button>
    </main>
  );
}

/**
 * The router's errorElement. A data router catches errors thrown while rendering a route itself, so they never
 * reach ErrorBoundary; without this the visitor would see react-router's developer screen instead of the spec's.
 */
export function RouteErrorScreen() {
  const error = useRouteError();
  useEffect(() => {
    console.error('Unhandled rendering error', error);
  }, [error]);
  return <ErrorScreen />;
}

interface State {
  failed: boolean;
}

/** The error screen of the spec around the whole app, for failures outside the router (store, providers). */
export class ErrorBoundary extends Component<{ children: ReactNode; onReload?: () => void }, State> {
  state: State = { failed: false };

  static getDerivedStateFromError(): State {
    return { failed: true };
  }

  componentDidCatch(error: Error, info: ErrorInfo) {
    console.error('Unhandled rendering error', error, info.componentStack);
  }

  render() {
    if (!this.state.failed) return this.props.children;
    return <ErrorScreen onReload={this.props.onReload} />;
  }
}

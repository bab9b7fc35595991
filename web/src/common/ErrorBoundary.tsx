import { Component, type ErrorInfo, type ReactNode } from 'react';

interface State {
  failed: boolean;
}

/** The error screen of the spec around the whole app. */
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
    return (
      <main className="error-screen" role="alert">
        <h1>Something went wrong.</h1>
        <p>We encountered an unexpected error. Please try refreshing the page.</p>
        <button type="button" className="btn btn-primary" onClick={() => (this.props.onReload ?? (() => window.location.reload()))()}>
          Refresh Page
        </button>
      </main>
    );
  }
}

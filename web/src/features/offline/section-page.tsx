import { Component, lazy, useEffect, useState, type ComponentType, type ErrorInfo, type ReactNode } from 'react';
import { isChunkLoadError } from './chunk-errors';
import { OfflineScreen } from './OfflineScreen';

interface BoundaryProps {
  children: ReactNode;
  /** The section's code failed to download: load it afresh next time. */
  onChunkFailure: () => void;
  onRetry: () => void;
}

/** Catches a section whose code failed to download; any other error goes on to the router's error screen. */
class SectionBoundary extends Component<BoundaryProps, { failed: unknown }> {
  state = { failed: null as unknown };

  static getDerivedStateFromError(error: unknown) {
    return { failed: error };
  }

  componentDidCatch(error: unknown, _info: ErrorInfo) {
    if (isChunkLoadError(error)) this.props.onChunkFailure();
  }

  render() {
    const { failed } = this.state;
    if (failed === null) return this.props.children;
    if (!isChunkLoadError(failed)) return <Rethrow error={failed} />;
    return <RetryWhenOnline onRetry={this.props.onRetry} />;
  }
}

function Rethrow({ error }: { error: unknown }): never {
  throw error;
}

/** The offline page, which tries again by itself when the browser is back online. */
function RetryWhenOnline({ onRetry }: { onRetry: () => void }) {
  useEffect(() => {
    window.addEventListener('online', onRetry);
    return () => window.removeEventListener('online', onRetry);
  }, [onRetry]);
  return <OfflineScreen onRetry={onRetry} />;
}

/**
 * A page whose code loads when its route is first shown (React.lazy), which, when that download fails (offline, in a
 * section never opened on this device), shows the offline page in its place instead of the error screen (issue #40),
 * and downloads again on "Try again" or when the browser is back online. React.lazy remembers a failure for good, so
 * a failed one is replaced by a fresh one.
 */
export function sectionPage(load: () => Promise<ComponentType>): ComponentType {
  const fresh = () => lazy(async () => ({ default: await load() }));
  let Section = fresh();
  function SectionPage() {
    const [attempt, setAttempt] = useState(0);
    return (
      <SectionBoundary
        key={attempt}
        onChunkFailure={() => {
          Section = fresh();
        }}
        onRetry={() => setAttempt((n) => n + 1)}
      >
        <Section />
      </SectionBoundary>
    );
  }
  return SectionPage;
}

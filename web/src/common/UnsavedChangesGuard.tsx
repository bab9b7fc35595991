import { useContext, useEffect } from 'react';
import { useIntl } from 'react-intl';
import { UNSAFE_DataRouterContext, useBlocker } from 'react-router-dom';
import { ConfirmDialog } from './ConfirmDialog';

/**
 * While `when` holds, leaving the page asks first: a link or Back inside the app opens a dialog (stay, or leave and
 * lose the changes); closing or reloading the tab gets the browser's own question. Navigation blocking needs the
 * app's data router; under a plain router (component tests) only the browser's question applies. `what` is in the
 * reader's language ("your alert").
 */
export function UnsavedChangesGuard({ when, what }: { when: boolean; what: string }) {
  const dataRouter = useContext(UNSAFE_DataRouterContext);
  useEffect(() => {
    if (!when) return;
    const onBeforeUnload = (e: BeforeUnloadEvent) => {
      e.preventDefault();
      // older browsers show the question only when returnValue is set
      e.returnValue = '';
    };
    window.addEventListener('beforeunload', onBeforeUnload);
    return () => window.removeEventListener('beforeunload', onBeforeUnload);
  }, [when]);
  return dataRouter ? <LeaveDialog when={when} what={what} /> : null;
}

function LeaveDialog({ when, what }: { when: boolean; what: string }) {
  const intl = useIntl();
  const blocker = useBlocker(({ currentLocation, nextLocation }) => when && currentLocation.pathname !== nextLocation.pathname);
  if (blocker.state !== 'blocked') return null;
  return (
    <ConfirmDialog
      title={intl.formatMessage({ id: 'common.unsavedChanges.title', defaultMessage: 'Leave without saving?' })}
      message={intl.formatMessage(
        { id: 'common.unsavedChanges.message', defaultMessage: 'You have unsaved changes to {what}. If you leave this page now, they are lost.' },
        { what },
      )}
      cancelLabel={intl.formatMessage({ id: 'common.unsavedChanges.stay', defaultMessage: 'Stay on this page' })}
      confirmLabel={intl.formatMessage({ id: 'common.unsavedChanges.leave', defaultMessage: 'Leave without saving' })}
      onCancel={() => blocker.reset()}
      onConfirm={() => blocker.proceed()}
    />
  );
}

import { useEffect } from 'react';
import { useAppDispatch } from '@/app/hooks';
import { api } from '@/app/api';
import { auth } from './auth-client';
import { recoveryStarted, signedIn, signedOut, toSignedInUser } from './auth.slice';

/** Feeds the client library's auth events into Redux. */
export function AuthListener() {
  const dispatch = useAppDispatch();
  useEffect(() => {
    const { data } = auth.onAuthStateChange((event, session) => {
      if (event === 'PASSWORD_RECOVERY') dispatch(recoveryStarted());
      if (session?.user) dispatch(signedIn(toSignedInUser(session.user)));
      else {
        dispatch(signedOut());
        if (event === 'SIGNED_OUT') dispatch(api.util.resetApiState());
      }
    });
    return () => data.subscription.unsubscribe();
  }, [dispatch]);
  return null;
}

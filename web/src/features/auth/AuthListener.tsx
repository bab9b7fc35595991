import { useEffect } from 'react';
import { useAppDispatch } from '@/app/hooks';
import { api } from '@/app/api';
import { auth } from './auth-client';
import { needsSecondFactor } from './assurance';
import { recoveryStarted, secondFactorRequired, signedIn, signedOut, toSignedInUser } from './auth.slice';

/** Feeds the client library's auth events into Redux; a session still waiting for its second factor is not signed in. */
export function AuthListener() {
  const dispatch = useAppDispatch();
  useEffect(() => {
    const { data } = auth.onAuthStateChange((event, session) => {
      if (event === 'PASSWORD_RECOVERY') dispatch(recoveryStarted());
      if (session?.user) {
        const user = toSignedInUser(session.user);
        dispatch(needsSecondFactor(session) ? secondFactorRequired(user) : signedIn(user));
      } else {
        dispatch(signedOut());
        if (event === 'SIGNED_OUT') dispatch(api.util.resetApiState());
      }
    });
    return () => data.subscription.unsubscribe();
  }, [dispatch]);
  return null;
}

import { useCallback } from 'react';
import { useNavigate } from 'react-router-dom';
import toast from 'react-hot-toast';
import { useIntl } from 'react-intl';
import { useAppDispatch } from '@/app/hooks';
import { api } from '@/app/api';
import { auth } from './auth-client';
import { signedOut } from './auth.slice';

/** Signs out (header, sidebar, profile, admin), clears cached server data, then goes to `to`. */
export function useSignOut(to = '/') {
  const navigate = useNavigate();
  const dispatch = useAppDispatch();
  const intl = useIntl();
  return useCallback(async () => {
    const { error } = await auth.signOut({ scope: 'local' });
    // The spec: sign-out failures are only logged; the local session is gone either way.
    if (error && ![401, 403, 404].includes(error.status ?? 0)) console.error('Sign-out failed', error);
    dispatch(signedOut());
    dispatch(api.util.resetApiState());
    toast.success(intl.formatMessage({ id: 'auth.signOut.success', defaultMessage: 'Signed out successfully!' }));
    navigate(to, { replace: true });
  }, [dispatch, navigate, to, intl]);
}

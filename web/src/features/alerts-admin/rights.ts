import { useAppSelector } from '@/app/hooks';
import { selectCanApprove, selectCanPublish, selectIsAdmin, selectUser } from '@/features/auth/auth.slice';

/**
 * What the signed-in staff member may do on the alert screens (issue #38): a viewer reads the console and sees no
 * button that acts; a publisher writes, sends, schedules and cancels; an approver also approves colleagues' alerts.
 * The server has the last word on each route; hiding the buttons keeps a viewer from meeting its 403s.
 */
export interface ConsoleRights {
  userId: string | null;
  canPublish: boolean;
  canApprove: boolean;
  /** Settings, reports and roles are an administrator's. */
  isAdmin: boolean;
}

export function useConsoleRights(): ConsoleRights {
  const userId = useAppSelector(selectUser)?.id ?? null;
  const canPublish = useAppSelector(selectCanPublish);
  const canApprove = useAppSelector(selectCanApprove);
  const isAdmin = useAppSelector(selectIsAdmin);
  return { userId, canPublish, canApprove, isAdmin };
}

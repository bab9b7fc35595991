import { useCallback } from 'react';
import { useAppSelector } from '@/app/hooks';
import { useNow } from '@/common/useNow';
import { selectUser } from '@/features/auth/auth.slice';
import { useAnnouncements } from './announcements';
import { CriticalTakeover } from './CriticalTakeover';
import { SpeakingControl, SpeakingIndicator } from './SpeakingIndicator';
import { acknowledge, useWarnings } from './useWarnings';
import { WarningBanners } from './WarningBanner';
import './warnings.css';

/**
 * The app-wide warning layer (issue #40), mounted once in every layout for a signed-in person: the banners at the top
 * of every page, the takeover of a critical alert, the speaking indicator, with the sound, vibration and voice
 * useWarnings decides on.
 *
 * `inline`: the admin console's. Staff at work there (sending, correcting or cancelling an alert) are never covered
 * or blocked: the warnings sit in the page's flow above it, a critical one as a banner, never the takeover.
 */
export function WarningLayer({ inline = false }: { inline?: boolean }) {
  const user = useAppSelector(selectUser);
  return user ? <PersonWarnings userId={user.id} inline={inline} /> : null;
}

function PersonWarnings({ userId, inline }: { userId: string; inline: boolean }) {
  useWarnings(userId);
  const now = useNow(30_000);
  const items = useAnnouncements();
  const takeover = inline ? undefined : items.find((i) => i.takeover);
  const onAcknowledge = useCallback(() => takeover && acknowledge(userId, takeover.key), [userId, takeover]);
  if (inline) {
    return (
      <div className="warnings-inline">
        <WarningBanners items={items} now={now} inline />
        <SpeakingControl />
      </div>
    );
  }
  return (
    <>
      <WarningBanners items={items.filter((i) => !i.takeover)} now={now} />
      {takeover ? <CriticalTakeover item={takeover} now={now} onAcknowledge={onAcknowledge} /> : <SpeakingIndicator />}
    </>
  );
}

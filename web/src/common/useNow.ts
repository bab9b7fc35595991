import { useEffect, useState } from 'react';
import { serverNow } from './server-clock';

/** The server's "now" (server-clock.ts), re-rendering every `ms` so relative ages ("5m ago") stay true. */
export function useNow(ms = 60_000): Date {
  const [now, setNow] = useState(() => serverNow());
  useEffect(() => {
    const t = setInterval(() => setNow(serverNow()), ms);
    return () => clearInterval(t);
  }, [ms]);
  return now;
}

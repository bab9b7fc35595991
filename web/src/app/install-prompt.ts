import { useSyncExternalStore } from 'react';

/**
 * Installing Beacon as an app (issue #40). Chromium offers it through `beforeinstallprompt`, fired once, early, when
 * the page is installable: it is caught here from the start and kept until the person chooses. iOS has no such event:
 * Safari installs from Share > Add to Home Screen, and web push there works only for an app installed that way, so
 * the first run explains it instead.
 */
export interface InstallPromptEvent extends Event {
  prompt(): Promise<void>;
  userChoice: Promise<{ outcome: 'accepted' | 'dismissed' }>;
}

let deferred: InstallPromptEvent | null = null;
const listeners = new Set<() => void>();
const changed = () => listeners.forEach((l) => l());

/** Starts listening for the browser's install offer; called once when the app starts. */
export function captureInstallPrompt() {
  if (typeof window === 'undefined') return;
  window.addEventListener('beforeinstallprompt', (e) => {
    // keep the browser's own mini-infobar away: the app asks at a moment that makes sense (the first run)
    e.preventDefault();
    deferred = e as InstallPromptEvent;
    changed();
  });
  window.addEventListener('appinstalled', () => {
    deferred = null;
    changed();
  });
}

const subscribe = (l: () => void) => {
  listeners.add(l);
  return () => {
    listeners.delete(l);
  };
};

/** The browser's install offer while there is one; `install()` shows it and says whether the person accepted. */
export function useInstallPrompt(): { available: boolean; install: () => Promise<boolean> } {
  const offer = useSyncExternalStore(
    subscribe,
    () => deferred,
    () => null,
  );
  return {
    available: offer !== null,
    install: async () => {
      if (!offer) return false;
      await offer.prompt();
      const { outcome } = await offer.userChoice;
      // an offer can be shown once
      deferred = null;
      changed();
      return outcome === 'accepted';
    },
  };
}

/** An iPhone or iPad browser (iPadOS says it is a Mac, but has touch), where installing goes through Add to Home Screen. */
export function isIos(nav: Navigator = navigator): boolean {
  return /iPad|iPhone|iPod/.test(nav.userAgent) || (nav.platform === 'MacIntel' && nav.maxTouchPoints > 1);
}

/** Beacon opened as an installed app (from the home screen), not in a browser tab. */
export function isInstalledApp(): boolean {
  const standalone = (navigator as Navigator & { standalone?: boolean }).standalone === true;
  return standalone || (typeof window.matchMedia === 'function' && window.matchMedia('(display-mode: standalone)').matches);
}

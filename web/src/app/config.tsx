import { createContext, useContext } from 'react';

/** Public runtime configuration served by the edge at /app-config.json (never secrets). */
export interface AppConfig {
  tileUrl: string;
  tileAttribution: string;
  version: string;
}

export const DEFAULT_CONFIG: AppConfig = {
  tileUrl: 'https://tile.openstreetmap.org/{z}/{x}/{y}.png',
  tileAttribution: '&copy; OpenStreetMap contributors',
  version: '1.2.0',
};

export async function loadAppConfig(): Promise<AppConfig> {
  try {
    const res = await fetch('/app-config.json', { cache: 'no-store' });
    if (!res.ok) return DEFAULT_CONFIG;
    return { ...DEFAULT_CONFIG, ...(await res.json()) };
  } catch {
    return DEFAULT_CONFIG;
  }
}

export const AppConfigContext = createContext<AppConfig>(DEFAULT_CONFIG);
export const useAppConfig = () => useContext(AppConfigContext);

// The deployment's settings the shell reads at run time from GET /app-config.json: the provider's access
// email (shown to people who cannot register) and where the identity provider answers (for keycloak-js).
import { useEffect, useState } from 'react';

export interface IdentityConfig {
  /** The identity provider's base URL; its realms live under `${url}/realms/<realm>`. */
  url: string;
  realm: string;
  clientId: string;
}

export interface AppConfig {
  accessEmail: string;
  identity: IdentityConfig;
}

function isAppConfig(value: unknown): value is AppConfig {
  const config = value as Partial<AppConfig> | null;
  const identity = config?.identity as Partial<IdentityConfig> | undefined;
  return (
    typeof config?.accessEmail === 'string' &&
    typeof identity?.url === 'string' &&
    typeof identity.realm === 'string' &&
    typeof identity.clientId === 'string'
  );
}

let pending: Promise<AppConfig> | null = null;

async function fetchAppConfig(): Promise<AppConfig> {
  const response = await fetch('/app-config.json', { headers: { accept: 'application/json' } });
  if (!response.ok) throw new Error(`GET /app-config.json answered ${response.status}`);
  const body: unknown = await response.json();
  if (!isAppConfig(body)) throw new Error('GET /app-config.json answered an unexpected shape');
  return body;
}

/** The app config, fetched once per page; a failed attempt is forgotten so that the next call asks again. */
export function loadAppConfig(): Promise<AppConfig> {
  if (!pending) {
    pending = fetchAppConfig();
    pending.catch(() => {
      pending = null;
    });
  }
  return pending;
}

/** Forgets the fetched config (tests). */
export function resetAppConfig(): void {
  pending = null;
}

/**
 * The provider's access email, or null until it is known (or when the config cannot be read). Asked for
 * only once `needed` (the register dialog is open), so pages that never show it do not fetch the config.
 */
export function useAccessEmail(needed = true): string | null {
  const [accessEmail, setAccessEmail] = useState<string | null>(null);
  useEffect(() => {
    if (!needed || accessEmail !== null) return;
    let current = true;
    loadAppConfig().then(
      (config) => current && setAccessEmail(config.accessEmail),
      (error: unknown) => console.warn('Could not read the app config', error),
    );
    return () => {
      current = false;
    };
  }, [needed, accessEmail]);
  return accessEmail;
}

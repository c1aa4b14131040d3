// The shell's one session keeper, wired to the shared session store, keycloak-js, the identity settings
// of /app-config.json and POST /auth/logout. bootstrap.ts starts it; the top bar's logout icon uses it.
// keycloak-js is fetched only when a signed-in member's session is taken over: a visitor never loads it.
import { sessionStore } from '@rotunda/session';
import { logOut } from '../auth/api';
import { loadAppConfig } from '../config';
import { createSessionKeeper } from './keeper';

export const sessionKeeper = createSessionKeeper({
  store: sessionStore,
  identity: async () => (await loadAppConfig()).identity,
  createKeycloak: async (config) => {
    const { default: Keycloak } = await import(/* webpackChunkName: "keycloak" */ 'keycloak-js');
    return new Keycloak(config);
  },
  logoutRequest: logOut,
});

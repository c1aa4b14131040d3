// The shell's one session keeper, wired to the shared session store, keycloak-js, the identity settings
// of /app-config.json and POST /auth/logout. bootstrap.ts starts it; the top bar's logout icon uses it.
import { sessionStore } from '@rotunda/session';
import Keycloak from 'keycloak-js';
import { logOut } from '../auth/api';
import { loadAppConfig } from '../config';
import { createSessionKeeper } from './keeper';

export const sessionKeeper = createSessionKeeper({
  store: sessionStore,
  identity: async () => (await loadAppConfig()).identity,
  createKeycloak: (config) => new Keycloak(config),
  logoutRequest: logOut,
});

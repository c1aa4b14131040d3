// The identity broker port with the built-in identity provider: there is none, so no agency can be registered
// and none signs anyone in (the domain answers "no agency", ListAgencies available false).
import { AGENCY_MESSAGES } from '@rotunda/rules';
import { DomainError } from '@rotunda/service-kit';
import type { AgencyBroker } from '../domain/ports.ts';

const needsKeycloak = () => new DomainError('failed_precondition', AGENCY_MESSAGES.needsKeycloak);

export const NO_AGENCY_BROKER: AgencyBroker = {
  available: false,
  register: () => Promise.reject(needsKeycloak()),
  unregister: () => Promise.resolve(),
  endpoints: () => ({ redirectUri: '', logoutUrl: '', spMetadataUrl: '' }),
  authorizationUrl: () => {
    throw needsKeycloak();
  },
  exchangeCode: () => Promise.resolve(null),
  federatedLinks: () => Promise.resolve([]),
  deleteUser: () => Promise.resolve(),
};

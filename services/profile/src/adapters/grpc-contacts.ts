// The gRPC face of the work contacts (ExportDirectory, GetContactCard): requests to the rules' calls, contacts to
// DirectoryContact messages, null fields becoming absent ones.
import type { DirectoryContact, ProfileServiceServer } from '@rotunda/protos/profile';
import { type Logger, serverStream, unary } from '@rotunda/service-kit';
import type { Contact, Contacts } from '../domain/contacts.ts';
import { opt } from './grpc-messages.ts';

function contactMessage(contact: Contact): DirectoryContact {
  return {
    profile_id: contact.profileId,
    first_name: contact.firstName,
    last_name: contact.lastName,
    title: opt(contact.title),
    organization_name: opt(contact.organizationName),
    division_name: opt(contact.divisionName),
    work_email: contact.workEmail,
    office_phone: opt(contact.officePhone),
  };
}

export function grpcContactHandlers(
  contacts: Contacts,
  logger: Logger,
): Pick<ProfileServiceServer, 'exportDirectory' | 'getContactCard'> {
  return {
    exportDirectory: serverStream(logger, 'ExportDirectory', async function* (request, context) {
      const rows = contacts.exportSearch(context.caller, {
        search: request.search,
        group: request.group,
        issueId: request.issue_id ?? null,
      });
      for await (const contact of rows) yield contactMessage(contact);
    }),
    getContactCard: unary(logger, 'GetContactCard', async (request, context) =>
      contactMessage(await contacts.contactCard(context.caller, request.profile_id)),
    ),
  };
}

// The agencies whose identity providers Keycloak brokers, their email domains, and the brokered sign-ins begun
// and not yet finished, in the auth schema through Prisma.
import { Prisma, type PrismaClient } from '../../generated/prisma/client.ts';
import type { AgencyRecord, AgencySignIns, AgencyStore } from '../domain/ports.ts';

type Row = Prisma.AgencyGetPayload<{ include: { domains: true } }>;

const record = (row: Row): AgencyRecord => ({
  alias: row.alias,
  name: row.name,
  protocol: row.protocol as AgencyRecord['protocol'],
  domains: row.domains.map((entry) => entry.domain).sort(),
  metadataUrl: row.metadataUrl,
  clientId: row.clientId,
  createdAt: row.createdAt,
});

const withDomains = { domains: true } as const;

export function prismaAgencies(prisma: PrismaClient): AgencyStore {
  return {
    async list() {
      return (await prisma.agency.findMany({ include: withDomains, orderBy: { name: 'asc' } })).map(record);
    },
    async find(alias) {
      const row = await prisma.agency.findUnique({ where: { alias }, include: withDomains });
      return row ? record(row) : null;
    },
    async byDomain(domain) {
      const entry = await prisma.agencyDomain.findUnique({
        where: { domain: domain.toLowerCase() },
        include: { agency: { include: withDomains } },
      });
      return entry ? record(entry.agency) : null;
    },
    async add(agency) {
      try {
        const row = await prisma.agency.create({
          data: {
            alias: agency.alias,
            name: agency.name,
            protocol: agency.protocol,
            metadataUrl: agency.metadataUrl,
            clientId: agency.clientId,
            domains: { create: agency.domains.map((domain) => ({ domain })) },
          },
          include: withDomains,
        });
        return record(row);
      } catch (error) {
        if (!(error instanceof Prisma.PrismaClientKnownRequestError) || error.code !== 'P2002') throw error;
        // The one create is a transaction: nothing of it stays. Which key clashed decides the answer.
        if (await prisma.agency.findUnique({ where: { alias: agency.alias } }))
          return { taken: 'alias' as const };
        const held = await prisma.agencyDomain.findFirst({ where: { domain: { in: agency.domains } } });
        return { taken: held?.domain ?? agency.domains[0] ?? '' };
      }
    },
    async remove(alias) {
      const { count } = await prisma.agency.deleteMany({ where: { alias } });
      return count > 0;
    },
  };
}

export function prismaAgencySignIns(prisma: PrismaClient, options: { schema: string }): AgencySignIns {
  const table = Prisma.raw(`"${options.schema}"."agency_sign_ins"`);
  return {
    async begin(stateDigest, signIn) {
      // Sign-ins never finished (the person closed the tab) go here, a day after their time.
      await prisma.agencySignIn.deleteMany({
        where: { createdAt: { lt: new Date(Date.now() - 24 * 3600 * 1000) } },
      });
      await prisma.agencySignIn.create({ data: { stateDigest, ...signIn } });
    },
    async take(stateDigest, maxAgeSeconds) {
      // One DELETE … RETURNING both reads and spends the row, so the same state cannot finish two sign-ins;
      // the age is the database's clock, the one that stamped created_at.
      const rows = await prisma.$queryRaw<
        {
          code_verifier: string;
          nonce: string;
          alias: string;
          email: string;
          created_at: Date;
          fresh: boolean;
        }[]
      >`
        DELETE FROM ${table} WHERE state_digest = ${stateDigest}
        RETURNING code_verifier, nonce, alias, email, created_at,
          created_at > now() - make_interval(secs => ${maxAgeSeconds}::float8) AS fresh`;
      const row = rows[0];
      if (!row?.fresh) return null;
      return {
        codeVerifier: row.code_verifier,
        nonce: row.nonce,
        alias: row.alias,
        email: row.email,
        startedAt: row.created_at,
      };
    },
  };
}

// The fixed post and event types in the post schema through Prisma.
import type { PrismaClient } from '../../generated/prisma/client.ts';
import type { TypeStore } from '../domain/ports.ts';

export function prismaTypeStore(prisma: PrismaClient): TypeStore {
  return {
    async ensureTypes(postTypes, eventTypes) {
      await prisma.$transaction([
        ...postTypes.map((type) =>
          prisma.postType.upsert({
            where: { postTypeId: type.postTypeId },
            create: type,
            update: { postType: type.postType },
          }),
        ),
        ...eventTypes.map((type) =>
          prisma.eventType.upsert({
            where: { eventTypeId: type.eventTypeId },
            create: type,
            update: { eventType: type.eventType },
          }),
        ),
      ]);
    },

    listPostTypes: () => prisma.postType.findMany({ orderBy: { postTypeId: 'asc' } }),
    listEventTypes: () => prisma.eventType.findMany({ orderBy: { eventTypeId: 'asc' } }),
  };
}

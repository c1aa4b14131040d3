// Whole-directory downloads counted per member in the profile schema: one row per member with the start of their
// current window and the downloads in it, updated in one statement, so every replica shares the count and two
// downloads at once are both counted.
import { Prisma, type PrismaClient } from '../../generated/prisma/client.ts';
import type { DirectoryQuota } from '../domain/ports.ts';

export function prismaDirectoryQuota(prisma: PrismaClient, schema: string): DirectoryQuota {
  const table = Prisma.raw(`"${schema}"."directory_downloads"`);
  return {
    async take(userId, { downloads, windowSeconds }) {
      // A window that has ended starts again with this download.
      const [row] = await prisma.$queryRaw<{ downloads: number; seconds_left: number }[]>`
        INSERT INTO ${table} AS d (user_id, window_started_at, downloads)
        VALUES (${userId}, now(), 1)
        ON CONFLICT (user_id) DO UPDATE SET
          downloads = CASE WHEN d.window_started_at <= now() - make_interval(secs => ${windowSeconds}::int)
            THEN 1 ELSE d.downloads + 1 END,
          window_started_at = CASE WHEN d.window_started_at <= now() - make_interval(secs => ${windowSeconds}::int)
            THEN now() ELSE d.window_started_at END
        RETURNING d.downloads,
          EXTRACT(EPOCH FROM d.window_started_at + make_interval(secs => ${windowSeconds}::int) - now())::float8
            AS seconds_left`;
      if (!row || row.downloads <= downloads) return 0;
      return Math.max(1, Math.ceil(row.seconds_left));
    },
  };
}

// Announcing a change. Called inside the write's transaction: PostgreSQL delivers a NOTIFY only when the
// transaction commits, so a listener never hears of a change that was rolled back.
import { CHANGES_CHANNEL, type Change } from './changes.ts';

/** The statement that announces the change, for any driver: `SELECT pg_notify($1, $2)`. */
export function changeStatement(change: Change): { text: string; values: [string, string] } {
  return { text: 'SELECT pg_notify($1, $2)', values: [CHANGES_CHANNEL, JSON.stringify(change)] };
}

/** Something that runs a raw statement with parameters: Prisma Client or one of its transactions. */
export interface RawExecutor {
  $executeRawUnsafe: (query: string, ...values: unknown[]) => PromiseLike<number>;
}

export async function publishChange(executor: RawExecutor, change: Change): Promise<void> {
  const { text, values } = changeStatement(change);
  await executor.$executeRawUnsafe(text, ...values);
}

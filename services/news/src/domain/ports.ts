// The news service's ports: what its rules need from the outside world. Adapters implement them (Prisma on the
// news schema, the RSS and Atom reader that fetches only public addresses).
import type { Headline } from './headline.ts';

export interface HeadlineRepository {
  /** Stores the headlines whose url is not stored yet; answers how many were new. */
  addNew(headlines: readonly Headline[]): Promise<number>;
  /** Newest first. */
  latest(limit: number): Promise<Headline[]>;
}

export interface FeedReader {
  read(feedUrl: string): Promise<Headline[]>;
}

// A headline as the product shows it (spec §3 Headline) and the port the news service stores them through.
export interface Headline {
  title: string;
  snippet: string;
  url: string;
  logo: string;
  publication: string;
  createdAt: Date;
}

export interface HeadlineRepository {
  /** Stores the headlines whose url is not stored yet; answers how many were new. */
  addNew(headlines: readonly Headline[]): Promise<number>;
  /** Newest first. */
  latest(limit: number): Promise<Headline[]>;
}

export interface FeedReader {
  read(feedUrl: string): Promise<Headline[]>;
}

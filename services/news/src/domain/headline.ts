// A headline as the product shows it (spec §3 Headline).
export interface Headline {
  title: string;
  snippet: string;
  url: string;
  logo: string;
  publication: string;
  createdAt: Date;
}

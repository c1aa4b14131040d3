// A headline as the product shows it (docs/product.md#3-entities-and-their-fields Headline).
export interface Headline {
  title: string;
  snippet: string;
  url: string;
  logo: string;
  publication: string;
  createdAt: Date;
}

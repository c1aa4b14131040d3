// Tests the HTTP feed reader against a local server: RSS, Atom, charsets, and every way a feed can be broken.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createFeedReader, plainText, truncate } from '../src/adapters/feed-reader.ts';
import type { Headline } from '../src/domain/headline.ts';
import { type FeedServer, startFeedServer } from './fixtures/feed-server.ts';

const NOW = new Date('2025-06-12T00:00:00Z');
const TIMEOUT_MS = 300;

let server: FeedServer;
beforeAll(async () => {
  server = await startFeedServer();
});
afterAll(async () => {
  await server.close();
});

const reader = () => createFeedReader({ timeoutMs: TIMEOUT_MS, now: () => NOW });
const byTitle = (headlines: Headline[], title: string) => headlines.find((h) => h.title === title);

describe('createFeedReader on an RSS 2.0 feed', () => {
  let headlines: Headline[];
  beforeAll(async () => {
    headlines = await reader().read(server.url('/rss.xml'));
  });

  it('keeps items with a title and an http(s) link, once per url', () => {
    expect(headlines.map((h) => h.url)).toEqual([
      'https://capitol.example/budget-deal',
      'https://capitol.example/long-read',
      server.url('/local/story'),
    ]);
  });

  it('trims the title and takes publication and logo from the channel', () => {
    const budget = byTitle(headlines, 'Budget deal reached');
    expect(budget).toMatchObject({
      publication: 'Capitol Weekly',
      logo: 'https://capitol.example/logo.png',
    });
    for (const h of headlines) expect(h.publication).toBe('Capitol Weekly');
  });

  it('turns the html description into plain text', () => {
    expect(byTitle(headlines, 'Budget deal reached')?.snippet).toBe(
      'The Legislature & the governor agreed on a budget. Votes’re due — Friday.',
    );
  });

  it('cuts a long snippet at a word boundary with an ellipsis', () => {
    const snippet = byTitle(headlines, 'Long read: how a bill becomes law')?.snippet ?? '';
    expect(snippet.length).toBeLessThanOrEqual(280);
    expect(snippet.length).toBeGreaterThan(200);
    expect(snippet.endsWith('…')).toBe(true);
    const kept = snippet.slice(0, -1);
    expect(kept.startsWith('Every session, thousands of bills')).toBe(true);
    expect(kept).not.toContain('<');
    // The cut falls between two words of the original text.
    const full = plainText(
      "<p>Every session, thousands of bills are introduced in the Assembly and the Senate, yet only a fraction of them reach the governor's desk. This piece follows one bill from its first draft in a member's office through committee hearings, floor votes, conference negotiations and finally the signing ceremony, explaining each step along the way and who holds the pen at every stage of the process.</p>",
    );
    expect(full.startsWith(kept)).toBe(true);
    expect(full[kept.length]).toBe(' ');
  });

  it('uses the item date when parseable, else the time of reading', () => {
    expect(byTitle(headlines, 'Budget deal reached')?.createdAt.toISOString()).toBe(
      '2025-06-10T15:00:00.000Z',
    );
    expect(byTitle(headlines, 'Long read: how a bill becomes law')?.createdAt).toEqual(NOW);
    expect(byTitle(headlines, 'Local story')?.createdAt).toEqual(NOW);
  });
});

describe('createFeedReader on an Atom feed', () => {
  let headlines: Headline[];
  beforeAll(async () => {
    headlines = await reader().read(server.url('/atom.xml'));
  });

  it('maps entries with the alternate link, the feed title and the feed logo', () => {
    expect(headlines).toEqual([
      {
        title: 'Agency rules revised',
        snippet: 'The board adopted new rules one two',
        url: 'https://wire.example/agency-rules',
        logo: 'https://wire.example/logo.svg',
        publication: 'State Policy Wire',
        createdAt: new Date('2025-06-11T07:30:00Z'),
      },
      {
        title: 'Hearing scheduled',
        snippet: 'A hearing on SB 12 is set.',
        url: 'https://wire.example/hearing',
        logo: 'https://wire.example/logo.svg',
        publication: 'State Policy Wire',
        createdAt: new Date('2025-06-10T12:00:00Z'),
      },
    ]);
  });
});

describe('createFeedReader on other documents', () => {
  it('decodes the charset named in the XML declaration', async () => {
    const [headline] = await reader().read(server.url('/latin1.xml'));
    expect(headline).toMatchObject({
      title: 'Reunião às três',
      snippet: 'Açúcar e café.',
      publication: 'Diário do Capitólio',
      logo: '',
    });
  });

  it('refuses malformed XML, naming the url', async () => {
    const url = server.url('/malformed.xml');
    await expect(reader().read(url)).rejects.toThrow(`${url} is not a readable RSS or Atom feed`);
  });

  it('refuses a document that is not a feed', async () => {
    const url = server.url('/not-a-feed.html');
    await expect(reader().read(url)).rejects.toThrow(/not a readable RSS or Atom feed: Feed not recognized/);
  });

  it('refuses a 500 answer, naming the url and the status', async () => {
    const url = server.url('/500');
    await expect(reader().read(url)).rejects.toThrow(`${url} answered HTTP 500 Internal Server Error`);
  });

  it('refuses a 404 answer', async () => {
    const url = server.url('/missing.xml');
    await expect(reader().read(url)).rejects.toThrow(`${url} answered HTTP 404`);
  });

  it('gives up on a server that never answers after timeoutMs', async () => {
    const url = server.url('/slow');
    const started = performance.now();
    await expect(reader().read(url)).rejects.toThrow(`${url} did not answer within ${TIMEOUT_MS} ms`);
    const elapsed = performance.now() - started;
    expect(elapsed).toBeGreaterThanOrEqual(TIMEOUT_MS - 20);
    expect(elapsed).toBeLessThan(TIMEOUT_MS + 1500);
  });

  it('gives up on a body that stalls after the headers', async () => {
    const url = server.url('/slow-body');
    await expect(reader().read(url)).rejects.toThrow(`${url} did not answer within ${TIMEOUT_MS} ms`);
  });

  it('reports a DNS failure with its cause', async () => {
    const fetch: typeof globalThis.fetch = async () => {
      throw new TypeError('fetch failed', { cause: new Error('getaddrinfo ENOTFOUND feeds.invalid') });
    };
    const url = 'https://feeds.invalid/rss';
    await expect(createFeedReader({ timeoutMs: TIMEOUT_MS, fetch }).read(url)).rejects.toThrow(
      `${url} could not be fetched: getaddrinfo ENOTFOUND feeds.invalid`,
    );
  });

  it('refuses a document larger than maxBytes', async () => {
    const url = server.url('/rss.xml');
    await expect(createFeedReader({ timeoutMs: TIMEOUT_MS, maxBytes: 100 }).read(url)).rejects.toThrow(
      `${url} is larger than 100 bytes`,
    );
  });

  it('passes the timeout signal to the injected fetch, and names an untitled feed by its host', async () => {
    let signal: AbortSignal | null | undefined;
    const fetch: typeof globalThis.fetch = async (_input, init) => {
      signal = init?.signal;
      return new Response(
        '<rss version="2.0"><channel><item><title>A</title><link>https://a.example/1</link></item></channel></rss>',
      );
    };
    const [headline] = await createFeedReader({ timeoutMs: TIMEOUT_MS, fetch }).read(
      'https://x.example/feed',
    );
    expect(headline).toMatchObject({
      title: 'A',
      url: 'https://a.example/1',
      publication: 'x.example',
      logo: '',
    });
    expect(signal).toBeInstanceOf(AbortSignal);
  });
});

describe('plainText and truncate', () => {
  it('strips tags, comments and scripts, decodes entities and collapses whitespace', () => {
    expect(
      plainText('<p>One&nbsp;&amp;\n two</p><!-- x --><br/>three <b>4</b> &lt; 5 &#x1F600; &bogus;'),
    ).toBe('One & two three 4 < 5 😀 &bogus;');
    expect(plainText('5 < 6 and 7 > 3')).toBe('5 < 6 and 7 > 3');
  });

  it('leaves short text alone and cuts very long words mid-word', () => {
    expect(truncate('short text', 280)).toBe('short text');
    expect(truncate('x'.repeat(300), 280)).toBe(`${'x'.repeat(279)}…`);
    expect(truncate('alpha beta gamma delta', 15)).toBe('alpha beta…');
  });
});

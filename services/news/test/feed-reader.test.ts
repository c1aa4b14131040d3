// Tests the HTTP feed reader against a local server: RSS, Atom, charsets, every way a feed can be broken, and
// that it reaches public addresses only: no private, loopback or link-local feed, redirect or resolved name,
// and no more than MAX_REDIRECTS redirects.
import type { LookupAddress } from 'node:dns';
import { Response } from 'undici';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createFeedReader, MAX_REDIRECTS, plainText, truncate } from '../src/adapters/feed-reader.ts';
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

// The local server is on loopback: allowed here explicitly, as NEWS_ALLOW_PRIVATE_ADDRESSES=127.0.0.1 would.
const LOCAL = ['127.0.0.1'];
const reader = () =>
  createFeedReader({ timeoutMs: TIMEOUT_MS, now: () => NOW, allowedPrivateAddresses: LOCAL });
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
    const fetch = async () => {
      throw new TypeError('fetch failed', { cause: new Error('getaddrinfo ENOTFOUND feeds.invalid') });
    };
    const url = 'https://feeds.invalid/rss';
    await expect(createFeedReader({ timeoutMs: TIMEOUT_MS, fetch }).read(url)).rejects.toThrow(
      `${url} could not be fetched: getaddrinfo ENOTFOUND feeds.invalid`,
    );
  });

  it('refuses a document larger than maxBytes', async () => {
    const url = server.url('/rss.xml');
    await expect(
      createFeedReader({ timeoutMs: TIMEOUT_MS, maxBytes: 100, allowedPrivateAddresses: LOCAL }).read(url),
    ).rejects.toThrow(`${url} is larger than 100 bytes`);
  });

  it('passes the timeout signal to the injected fetch, and names an untitled feed by its host', async () => {
    let signal: unknown;
    const fetch = async (_input: unknown, init?: { signal?: unknown }) => {
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

describe('createFeedReader reaches public addresses only', () => {
  const PRIVATE = 'a private, loopback or link-local address; feeds are read from public addresses only';
  /** A resolver for the tests' own names: every *.example name is this machine, unless told otherwise. */
  const resolveTo =
    (answer: (hostname: string) => string) =>
    async (hostname: string): Promise<LookupAddress[]> => [{ address: answer(hostname), family: 4 }];
  const toLocal = resolveTo(() => '127.0.0.1');
  const asked = (from: number) => server.requests.slice(from);

  it('refuses a feed on loopback unless it is allowed, without sending the request', async () => {
    const before = server.requests.length;
    const url = server.url('/rss.xml');
    await expect(createFeedReader({ timeoutMs: TIMEOUT_MS }).read(url)).rejects.toThrow(
      `${url} could not be fetched: 127.0.0.1 is ${PRIVATE}`,
    );
    expect(asked(before)).toEqual([]);
  });

  it.each([
    'http://169.254.169.254/latest/meta-data/',
    'http://10.0.0.1/feed',
    'http://172.16.5.4/feed',
    'http://192.168.1.1/feed',
    'http://0.0.0.0/feed',
    'http://127.1.2.3/feed',
    'http://2130706433/feed',
    'http://[::1]/feed',
    'http://[::]/feed',
    'http://[::ffff:127.0.0.1]/feed',
    'http://[::ffff:a9fe:a9fe]/feed',
    'http://[fe80::1]/feed',
    'http://[fd12:3456::1]/feed',
  ])('refuses the feed address %s before connecting', async (url) => {
    await expect(createFeedReader({ timeoutMs: TIMEOUT_MS }).read(url)).rejects.toThrow(PRIVATE);
  });

  it('refuses a host name that resolves to a private address', async () => {
    const url = 'http://feeds.example/rss';
    const read = createFeedReader({ timeoutMs: TIMEOUT_MS, resolve: resolveTo(() => '10.20.30.40') }).read(
      url,
    );
    await expect(read).rejects.toThrow(
      `${url} could not be fetched: feeds.example resolves to 10.20.30.40, a ${PRIVATE.slice(2)}`,
    );
  });

  it('refuses localhost through the system resolver', async () => {
    const url = `http://localhost:${server.port}/rss.xml`;
    await expect(createFeedReader({ timeoutMs: TIMEOUT_MS }).read(url)).rejects.toThrow(PRIVATE);
  });

  it('checks the answer DNS gives at connect time: a name that re-resolves to a refused address is refused', async () => {
    const answers = ['127.0.0.1', '127.0.0.2'];
    let lookups = 0;
    const rebinding = resolveTo(() => answers[Math.min(lookups++, answers.length - 1)] as string);
    const url = `http://rebind.example:${server.port}/rss.xml`;
    const first = createFeedReader({
      timeoutMs: TIMEOUT_MS,
      allowedPrivateAddresses: LOCAL,
      resolve: rebinding,
    });
    expect(await first.read(url)).toHaveLength(3);
    expect(lookups).toBe(1);
    const second = createFeedReader({
      timeoutMs: TIMEOUT_MS,
      allowedPrivateAddresses: LOCAL,
      resolve: rebinding,
    });
    await expect(second.read(url)).rejects.toThrow(
      `rebind.example resolves to 127.0.0.2, a ${PRIVATE.slice(2)}`,
    );
  });

  it.each([
    ['the cloud metadata address', 'http://169.254.169.254/latest/meta-data/', '169.254.169.254 is'],
    ['another loopback address', 'http://127.0.0.2:PORT/rss.xml', '127.0.0.2 is'],
    ['IPv6 loopback', 'http://[::1]:PORT/rss.xml', '::1 is'],
    [
      'a name of a private address',
      'http://intranet.example/rss.xml',
      'intranet.example resolves to 192.168.0.10,',
    ],
  ])('does not follow a redirect to %s', async (_what, to, refused) => {
    const target = to.replace('PORT', String(server.port));
    const resolve = resolveTo((hostname) => (hostname === 'intranet.example' ? '192.168.0.10' : '127.0.0.1'));
    const before = server.requests.length;
    const url = server.url(`/redirect?to=${encodeURIComponent(target)}`);
    const read = createFeedReader({ timeoutMs: TIMEOUT_MS, allowedPrivateAddresses: LOCAL, resolve }).read(
      url,
    );
    await expect(read).rejects.toThrow(`${url} could not be fetched (redirected to ${target}): ${refused}`);
    expect(asked(before)).toEqual(['/redirect']);
  });

  it('does not follow a redirect to an address that is not http(s)', async () => {
    const url = server.url(`/redirect?to=${encodeURIComponent('file:///etc/passwd')}`);
    await expect(reader().read(url)).rejects.toThrow(
      `${url} redirects to file:///etc/passwd, which is not an http(s) address`,
    );
  });

  it(`follows a chain of ${MAX_REDIRECTS} redirects through other hosts, each checked`, async () => {
    let lookups = 0;
    const resolve = async (hostname: string) => {
      lookups++;
      return toLocal(hostname);
    };
    const before = server.requests.length;
    const url = `http://hop${MAX_REDIRECTS}.example:${server.port}/hop/${MAX_REDIRECTS}`;
    const headlines = await createFeedReader({
      timeoutMs: TIMEOUT_MS,
      allowedPrivateAddresses: LOCAL,
      resolve,
    }).read(url);
    expect(headlines.map((h) => h.title)).toContain('Budget deal reached');
    expect(asked(before)).toEqual(['/hop/5', '/hop/4', '/hop/3', '/hop/2', '/hop/1', '/hop/0']);
    // One lookup per host of the chain: each hop's address was resolved and checked when it was connected to.
    expect(lookups).toBe(MAX_REDIRECTS + 1);
  });

  it(`refuses a chain longer than ${MAX_REDIRECTS} redirects`, async () => {
    const before = server.requests.length;
    const url = `http://hop${MAX_REDIRECTS + 1}.example:${server.port}/hop/${MAX_REDIRECTS + 1}`;
    const read = createFeedReader({
      timeoutMs: TIMEOUT_MS,
      allowedPrivateAddresses: LOCAL,
      resolve: toLocal,
    }).read(url);
    await expect(read).rejects.toThrow(`${url} redirects more than ${MAX_REDIRECTS} times`);
    expect(asked(before)).toHaveLength(MAX_REDIRECTS + 1);
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

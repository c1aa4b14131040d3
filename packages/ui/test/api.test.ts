// The shared API client: JSON calls carrying the member's token (none for a visitor), FormData as it is, a 204
// as undefined, files with their server-given name, and every non-2xx as an ApiError with the server's message.

import { IDEMPOTENCY_MESSAGES } from '@rotunda/rules';
import { setSession } from '@rotunda/session';
import { makeMember, resetSession } from '@rotunda/session/testing';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { ApiError, asList, call, fetchFile, type Method, refusalOf, request, send } from '../src/index';

interface Sent {
  path: string;
  init: RequestInit;
  headers: Headers;
}

function answering(answer: () => Response) {
  const sent: Sent[] = [];
  vi.stubGlobal(
    'fetch',
    vi.fn(async (path: string, init: RequestInit) => {
      sent.push({ path, init, headers: new Headers(init.headers) });
      return answer();
    }),
  );
  return sent;
}

afterEach(() => {
  resetSession();
  vi.unstubAllGlobals();
});

describe('call', () => {
  it('sends a visitor’s JSON request without a token and answers the JSON', async () => {
    const sent = answering(() => Response.json({ ok: 1 }));
    expect(await call('POST', '/api/x', { body: { a: 1 } })).toEqual({ ok: 1 });
    expect(sent[0]?.init.method).toBe('POST');
    expect(sent[0]?.init.body).toBe('{"a":1}');
    expect(sent[0]?.headers.get('content-type')).toBe('application/json');
    expect(sent[0]?.headers.get('accept')).toBe('application/json');
    expect(sent[0]?.headers.has('x-auth-token')).toBe(false);
  });

  it('sends the member’s token, and no body or content-type for a GET; passes the abort signal', async () => {
    setSession(makeMember({ token: 'member-token' }));
    const sent = answering(() => Response.json([]));
    const signal = new AbortController().signal;
    await call('GET', '/api/y', { signal });
    expect(sent[0]?.headers.get('x-auth-token')).toBe('member-token');
    expect(sent[0]?.headers.has('content-type')).toBe(false);
    expect(sent[0]?.init.body).toBeUndefined();
    expect(sent[0]?.init.signal).toBe(signal);
  });

  it('sends a FormData as multipart, leaving the content type to the browser', async () => {
    const sent = answering(() => Response.json({ url: '/media/1' }));
    const form = new FormData();
    form.set('logo', 'x');
    await call('POST', '/api/upload', { body: form });
    expect(sent[0]?.init.body).toBe(form);
    expect(sent[0]?.headers.has('content-type')).toBe(false);
  });

  it('answers undefined for a 204', async () => {
    answering(() => new Response(null, { status: 204 }));
    expect(await call('DELETE', '/api/z', { body: { id: 1 } })).toBeUndefined();
  });

  it('throws an ApiError with the status and the server’s message', async () => {
    answering(() => Response.json({ errors: [{ msg: 'Title is required' }] }, { status: 400 }));
    const error = await call('POST', '/api/p', { body: {} }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ApiError);
    expect(error).toMatchObject({
      status: 400,
      serverMessage: 'Title is required',
      message: 'POST /api/p answered 400: Title is required',
    });
    expect(refusalOf(error)).toBe('Title is required');
  });

  it('has no server message for a body without one, a blank one or no JSON; a 5xx is no refusal', async () => {
    for (const body of ['{"errors":[{"msg":"  "}]}', 'not json', '{}']) {
      answering(() => new Response(body, { status: 500 }));
      const error = await call('GET', '/api/q').catch((e: unknown) => e);
      expect(error).toMatchObject({ status: 500, serverMessage: null, message: 'GET /api/q answered 500' });
      expect(refusalOf(error)).toBeNull();
    }
    expect(refusalOf(new Error('x'))).toBeNull();
  });
});

describe('early answers', () => {
  it('takes a visitor’s answer already on its way for exactly that request', async () => {
    const sent = answering(() => Response.json(['own']));
    const early = vi.fn(async () => Response.json(['early']));
    expect(await call('POST', '/api/posts/all', { body: { offset: 0 }, early })).toEqual(['early']);
    expect(early).toHaveBeenCalledWith({ method: 'POST', path: '/api/posts/all', body: '{"offset":0}' });
    expect(sent).toHaveLength(0);
  });

  it('asks the server itself when there is none, and never looks for one with a member’s token', async () => {
    const sent = answering(() => Response.json(['own']));
    expect(await call('POST', '/api/posts/all', { body: {}, early: async () => null })).toEqual(['own']);
    setSession(makeMember());
    const early = vi.fn(async () => Response.json(['early']));
    expect(await call('POST', '/api/posts/all', { body: {}, early })).toEqual(['own']);
    expect(early).not.toHaveBeenCalled();
    expect(sent).toHaveLength(2);
  });
});

describe('files and raw requests', () => {
  it('fetches a file with its server-given name, without an accept header unless asked', async () => {
    setSession(makeMember({ token: 't' }));
    const sent = answering(
      () =>
        new Response('BEGIN:VCARD', {
          headers: { 'content-disposition': 'attachment; filename="Ada-Lovelace.vcf"' },
        }),
    );
    const file = await fetchFile('/api/card');
    expect(file.fileName).toBe('Ada-Lovelace.vcf');
    expect(await file.blob.text()).toBe('BEGIN:VCARD');
    expect(sent[0]?.headers.has('accept')).toBe(false);
    expect(sent[0]?.headers.get('x-auth-token')).toBe('t');
    await fetchFile('/api/people.csv', { accept: 'text/csv' });
    expect(sent[1]?.headers.get('accept')).toBe('text/csv');
  });

  it('request answers the response itself; send never throws and sends only the token it is given', async () => {
    const sent = answering(() => new Response('x', { status: 401 }));
    const response = await send('POST', '/auth/logout', { body: { refreshToken: 'r' }, token: 'a' });
    expect(response.status).toBe(401);
    expect(sent[0]?.headers.get('x-auth-token')).toBe('a');
    await expect(request('GET', '/api/r')).rejects.toMatchObject({ status: 401 });
  });

  it('asList accepts a list and names the call that answered something else', () => {
    expect(asList<number>([1], 'history')).toEqual([1]);
    expect(() => asList({}, 'history')).toThrow('history did not answer a list');
  });
});

/** Answers in turn: a Response, or an Error for a request that got no answer at all. */
function answeringInTurn(...answers: (Response | Error)[]) {
  const sent: Sent[] = [];
  vi.stubGlobal(
    'fetch',
    vi.fn(async (path: string, init: RequestInit) => {
      sent.push({ path, init, headers: new Headers(init.headers) });
      const answer =
        answers.shift() ?? Response.json({ errors: [{ msg: 'unexpected request' }] }, { status: 500 });
      if (answer instanceof Error) throw answer;
      return answer;
    }),
  );
  return sent;
}

/** Runs the call with the pauses between attempts skipped. */
async function settled<T>(promise: Promise<T>): Promise<T> {
  const outcome = promise.then(
    (value) => ({ value }),
    (error: unknown) => ({ error }),
  );
  await vi.runAllTimersAsync();
  const result = await outcome;
  if ('error' in result) throw result.error;
  return result.value;
}

describe('a create sent with an Idempotency-Key', () => {
  const keys = (sent: Sent[]) => sent.map((request) => request.headers.get('idempotency-key'));
  const unavailable = () =>
    Response.json(
      { errors: [{ msg: 'The post service is unavailable. Please try again shortly.' }] },
      { status: 503 },
    );
  afterEach(() => vi.useRealTimers());

  it('is sent again with the same key when no answer came or the service was away, until it lands', async () => {
    vi.useFakeTimers();
    const sent = answeringInTurn(
      new TypeError('Failed to fetch'),
      unavailable(),
      Response.json({ post_id: 7 }, { status: 201 }),
    );
    expect(
      await settled(
        call('POST', '/api/posts/add-post', { body: { post_title: 'Hearing' }, idempotent: true }),
      ),
    ).toEqual({
      post_id: 7,
    });
    expect(sent).toHaveLength(3);
    const [key] = keys(sent);
    expect(key).toMatch(/^[0-9a-f-]{36}$/);
    expect(keys(sent)).toEqual([key, key, key]);
    expect(sent.map((request) => request.init.body)).toEqual(Array(3).fill('{"post_title":"Hearing"}'));
  });

  it('waits out an attempt still in progress, and is not sent again once the server has refused it', async () => {
    vi.useFakeTimers();
    const inProgress = Response.json({ errors: [{ msg: IDEMPOTENCY_MESSAGES.inProgress }] }, { status: 409 });
    const sent = answeringInTurn(inProgress, Response.json({ comment_id: 3 }, { status: 201 }));
    expect(
      await settled(
        call('POST', '/api/posts/add-comment', { body: { comment_body: 'Hi' }, idempotent: true }),
      ),
    ).toEqual({
      comment_id: 3,
    });
    expect(sent).toHaveLength(2);
    const refused = answeringInTurn(
      Response.json({ errors: [{ msg: 'Title is required' }] }, { status: 400 }),
    );
    await expect(
      settled(call('POST', '/api/posts/add-post', { body: { post_title: '' }, idempotent: true })),
    ).rejects.toMatchObject({
      status: 400,
      serverMessage: 'Title is required',
    });
    expect(refused).toHaveLength(1);
  });

  it('keeps its key after failing, so the member sending the same again cannot make two; a landed one frees it', async () => {
    vi.useFakeTimers();
    const body = { post_title: 'Reception' };
    const failed = answeringInTurn(unavailable(), unavailable(), unavailable());
    await expect(
      settled(call('POST', '/api/posts/add-post', { body, idempotent: true })),
    ).rejects.toMatchObject({
      status: 503,
    });
    expect(new Set(keys(failed)).size).toBe(1);
    const again = answeringInTurn(Response.json({ post_id: 8 }, { status: 201 }));
    await settled(call('POST', '/api/posts/add-post', { body, idempotent: true }));
    expect(keys(again)).toEqual(keys(failed).slice(0, 1));
    // Landed: the same text posted once more is a new post, with a new key; another text never shares a key.
    const next = answeringInTurn(
      Response.json({ post_id: 9 }, { status: 201 }),
      Response.json({ post_id: 10 }, { status: 201 }),
    );
    await settled(call('POST', '/api/posts/add-post', { body, idempotent: true }));
    await settled(call('POST', '/api/posts/add-post', { body: { post_title: 'Other' }, idempotent: true }));
    const [third, fourth] = keys(next);
    expect(third).not.toBe(keys(failed)[0]);
    expect(fourth).not.toBe(third);
  });

  it('a plain call carries no key and is sent once, whatever the answer', async () => {
    const sent = answeringInTurn(unavailable());
    await expect(call('POST', '/api/posts/update-post', { body: { post_id: 1 } })).rejects.toMatchObject({
      status: 503,
    });
    expect(sent).toHaveLength(1);
    expect(sent[0]?.headers.has('idempotency-key')).toBe(false);
  });
});

describe('a read whose connection failed before any answer (a gateway worker died with it)', () => {
  afterEach(() => vi.useRealTimers());
  const feed = Response.json([{ post_id: 1 }]);

  it('is sent once more, quickly: GETs and the reads sent as POST (the feed, likes, colleagues)', async () => {
    vi.useFakeTimers();
    const reads: [Method, string][] = [
      ['GET', '/api/profiles/profile/7'],
      ['POST', '/api/posts/all'],
      ['POST', '/api/posts/get-likes/user-1'],
      ['POST', '/api/posts/profile-info'],
      ['POST', '/api/profiles/organization-colleagues'],
      ['POST', '/api/profiles/new-user-check'],
    ];
    for (const [method, path] of reads) {
      const sent = answeringInTurn(new TypeError('Failed to fetch'), Response.json({ read: path }));
      const started = Date.now();
      expect(await settled(call(method, path, method === 'POST' ? { body: {} } : {}))).toEqual({
        read: path,
      });
      expect(sent, `${method} ${path}`).toHaveLength(2);
      expect(Date.now() - started).toBeLessThanOrEqual(200);
    }
  });

  it('fails when the second sending fails too; an answer, even 503, is not sent again', async () => {
    vi.useFakeTimers();
    const twice = answeringInTurn(new TypeError('Failed to fetch'), new TypeError('Failed to fetch'), feed);
    await expect(settled(call('POST', '/api/posts/all', { body: {} }))).rejects.toThrow('Failed to fetch');
    expect(twice).toHaveLength(2);
    const answered = answeringInTurn(
      Response.json({ errors: [{ msg: 'The post service is unavailable.' }] }, { status: 503 }),
      feed,
    );
    await expect(settled(call('POST', '/api/posts/all', { body: {} }))).rejects.toMatchObject({
      status: 503,
    });
    expect(answered).toHaveLength(1);
  });

  it('a write, or a read the member abandoned, is not sent again', async () => {
    vi.useFakeTimers();
    for (const path of ['/api/posts/update-post', '/api/posts/add-like', '/api/profiles/update-profile']) {
      const sent = answeringInTurn(new TypeError('Failed to fetch'), feed);
      await expect(settled(call('POST', path, { body: {} }))).rejects.toThrow('Failed to fetch');
      expect(sent, path).toHaveLength(1);
    }
    const aborted = new AbortController();
    aborted.abort();
    const sent = answeringInTurn(new TypeError('Failed to fetch'), feed);
    await expect(settled(call('GET', '/api/posts/post-types', { signal: aborted.signal }))).rejects.toThrow();
    expect(sent).toHaveLength(1);
  });
});

// FetchBackendClient over a recording transport: the six /v2 routes' requests, decoding, problem codes, Retry-After
// and the retry categories, the URL policy, and errors that never carry the token or a journey URL.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { BatonConfigurationError, encodePathSegment, FetchBackendClient } from '../src/backend/BackendClient';
import { BackendError } from '../src/backend/BackendError';
import { BackendRequest, BackendResponse, fetchTransport, FetchFunction, TransportError } from '../src/backend/BackendTransport';
import { classifyShareOutcome } from '../src/core/retry';
import { DEVELOPMENT_URL_POLICY, isLoopbackHost } from '../src/core/urlPolicy';
import { shareCard } from './fixtures';

const TOKEN = 'bt1.secret-token.sig';
const JOURNEY = 'https://chia.example/h/phs_secret';

function respond(status: number, body: unknown, headers: Record<string, string> = {}): BackendResponse {
  const lower = Object.fromEntries(Object.entries(headers).map(([k, v]) => [k.toLowerCase(), v]));
  return { status, header: (name) => lower[name.toLowerCase()] ?? null, body: typeof body === 'string' ? body : JSON.stringify(body) };
}

function client(answer: (request: BackendRequest) => BackendResponse, options: { token?: string | null; dev?: boolean; baseUrl?: string } = {}) {
  const sent: BackendRequest[] = [];
  const backend = new FetchBackendClient({
    baseUrl: options.baseUrl ?? 'https://partner.example/',
    tokenProvider: async () => (options.token === undefined ? TOKEN : options.token),
    transport: async (request) => {
      sent.push(request);
      return answer(request);
    },
    urlPolicy: options.dev ? DEVELOPMENT_URL_POLICY : undefined,
  });
  return { backend, sent };
}

async function rejection(promise: Promise<unknown>): Promise<BackendError> {
  try {
    await promise;
  } catch (error) {
    assert.ok(error instanceof BackendError, `not a BackendError: ${String(error)}`);
    return error;
  }
  throw new Error('did not reject');
}

const attempt = { key: '3f2504e0-4f89-41d3-9a0c-0305e82c3301', catalogItemId: 'item-1', disclosureVersion: 'dv-1', affirmedAt: '2026-01-01T00:00:00Z' };

test('the six routes: method, path, bearer token, Accept, Idempotency-Key and exact bodies', async () => {
  const { backend, sent } = client((request) => {
    if (request.url.endsWith('/v2/catalog')) return respond(200, { items: [shareCard] });
    if (request.url.endsWith('/v2/handoff-sessions')) return respond(201, { expiresAt: '2026-01-01T00:10:00Z', url: JOURNEY });
    if (request.url.endsWith('/v2/verification-handoffs')) return respond(200, { expiresInSeconds: 120, url: 'https://privue.example/j#ticket=t' });
    if (request.url.includes('/v2/verifications/')) return respond(200, { status: 'approved', verificationId: 'v1' });
    if (request.url.endsWith('/v2/connect-sessions')) return respond(201, { callback: { host: 'app.example.com', kind: 'https', path: '/bb-callback' }, hostedUrl: 'https://bb.example/c/1', sessionId: 's 1' });
    return respond(200, { sessionId: 's 1', status: 'ok', connectionId: 'c1' });
  });
  assert.equal((await backend.catalog()).map((c) => c.id).join(), 'item-1');
  const session = await backend.createHandoffSession(attempt);
  assert.equal(session.url.reveal(), JOURNEY);
  assert.equal(session.expiresAt, '2026-01-01T00:10:00Z');
  assert.deepEqual((await backend.createVerificationHandoff('kyc')).expiresInSeconds, 120);
  assert.deepEqual(await backend.verification('merchant/onboarding'), { verificationId: 'v1', status: 'approved' });
  const connect = await backend.createConnectSession('https');
  assert.deepEqual([connect.sessionId, connect.callbackKind, connect.callback], ['s 1', 'https', { kind: 'https', host: 'app.example.com', path: '/bb-callback' }]);
  assert.deepEqual(await backend.connectSession('s 1'), { sessionId: 's 1', status: 'ok', connectionId: 'c1', error: null });
  assert.deepEqual(sent.map((r) => `${r.method} ${r.url}`), [
    'GET https://partner.example/v2/catalog',
    'POST https://partner.example/v2/handoff-sessions',
    'POST https://partner.example/v2/verification-handoffs',
    'GET https://partner.example/v2/verifications/merchant%2Fonboarding',
    'POST https://partner.example/v2/connect-sessions',
    'GET https://partner.example/v2/connect-sessions/s%201',
  ]);
  for (const request of sent) {
    assert.equal(request.headers.Authorization, `Bearer ${TOKEN}`);
    assert.equal(request.headers.Accept, 'application/json, application/problem+json');
  }
  assert.equal(sent[1].headers['Idempotency-Key'], attempt.key);
  assert.equal(sent[1].body, '{"affirmed":true,"affirmedAt":"2026-01-01T00:00:00Z","catalogItemId":"item-1","disclosureVersion":"dv-1"}');
  assert.equal(sent[1].headers['Content-Type'], 'application/json');
  assert.equal(sent[2].body, '{"workflow":"kyc"}');
  assert.equal(sent[4].body, '{"callback":"https"}');
  assert.equal(sent[0].body, null);
  assert.equal(sent[0].headers['Idempotency-Key'], undefined);
});

test('path segments: RFC 3986 unreserved characters stay, every other UTF-8 byte is percent-encoded', () => {
  assert.equal(encodePathSegment('AZaz09-._~'), 'AZaz09-._~');
  assert.equal(encodePathSegment("a/b?c#d e!*'()"), 'a%2Fb%3Fc%23d%20e%21%2A%27%28%29');
  assert.equal(encodePathSegment('é'), '%C3%A9');
  assert.equal(encodePathSegment('..'), '..');
});

test('problem+json: status, code and Retry-After; the retry categories of BatonClient', async () => {
  const cases: Array<[number, unknown, string | null, 'retryable' | 'definitive', string | null]> = [
    [503, { code: 'request_in_progress', status: 503 }, '3', 'retryable', 'request_in_progress'],
    [429, { code: 'rate_limited' }, 'Wed, 21 Oct 2026 07:28:00 GMT', 'retryable', 'rate_limited'],
    [408, '', null, 'retryable', null],
    [502, { code: 'provider_unavailable' }, null, 'retryable', 'provider_unavailable'],
    [409, { code: 'projection_changed' }, null, 'definitive', 'projection_changed'],
    [404, { code: 'a_code_from_a_newer_backend' }, null, 'definitive', 'a_code_from_a_newer_backend'],
    [401, { code: 'unauthorized' }, null, 'definitive', 'unauthorized'],
    [400, 'not json', null, 'definitive', null],
  ];
  for (const [status, body, retryAfter, failure, code] of cases) {
    const { backend } = client(() => respond(status, body, retryAfter === null ? {} : { 'Retry-After': retryAfter }));
    const error = await rejection(backend.createHandoffSession(attempt));
    assert.deepEqual(error.detail, { kind: 'http', status, code, retryAfter }, `${status}`);
    assert.equal(error.failure, failure, `${status}`);
    assert.equal(error.status, status);
    assert.equal(error.problemCode, code);
  }
  const { backend } = client(() => respond(401, { code: 'unauthorized' }));
  const unauthorized = await rejection(backend.createHandoffSession(attempt));
  assert.equal(classifyShareOutcome(unauthorized.shareOutcome, 0).decision, 'sign_in_and_retry');
  const { backend: later } = client(() => respond(503, { code: 'request_in_progress' }, { 'retry-after': '7' }));
  const busy = await rejection(later.createHandoffSession(attempt));
  assert.deepEqual(classifyShareOutcome(busy.shareOutcome, 0), { decision: 'retry', retryAfterSeconds: 7 });
});

test('signed out: not_authenticated, nothing sent; a throwing token provider is signed out too', async () => {
  const { backend, sent } = client(() => respond(200, {}), { token: null });
  const error = await rejection(backend.catalog());
  assert.deepEqual(error.detail, { kind: 'not_authenticated' });
  assert.equal(sent.length, 0);
  assert.equal(classifyShareOutcome(error.shareOutcome, 0).decision, 'sign_in_and_retry');
  const throwing = new FetchBackendClient({ baseUrl: 'https://p.example', tokenProvider: () => { throw new Error('keychain'); }, transport: async () => respond(200, {}) });
  assert.deepEqual((await rejection(throwing.catalog())).detail, { kind: 'not_authenticated' });
});

test('malformed 2xx bodies are malformed_response (retryable for a share: it may have been created)', async () => {
  const bodies: Array<[string, unknown]> = [
    ['handoff: not JSON', 'nope'],
    ['handoff: no url', { expiresAt: null }],
    ['handoff: http url under production', { url: 'http://127.0.0.1:9/h/phs_1' }],
    ['handoff: relative url', { url: '/h/phs_1' }],
    ['handoff: url with userinfo', { url: 'https://u@chia.example/h/1' }],
  ];
  for (const [name, body] of bodies) {
    const { backend } = client(() => respond(201, body));
    const error = await rejection(backend.createHandoffSession(attempt));
    assert.deepEqual(error.detail, { kind: 'malformed_response' }, name);
    assert.equal(error.failure, 'retryable', name);
  }
  const malformed = async (route: (b: FetchBackendClient) => Promise<unknown>, body: unknown) => {
    const { backend } = client(() => respond(200, body));
    return (await rejection(route(backend))).detail.kind;
  };
  assert.equal(await malformed((b) => b.connectSession('s'), { sessionId: 's', status: 'finished' }), 'malformed_response');
  assert.equal(await malformed((b) => b.createConnectSession('https'), { sessionId: '', hostedUrl: 'https://bb.example/', callback: 'https' }), 'malformed_response');
  assert.equal(await malformed((b) => b.createConnectSession('https'), { sessionId: 's', hostedUrl: 'https://bb.example/', callback: 'carrier-pigeon' }), 'malformed_response');
  assert.equal(await malformed((b) => b.verification('w'), { status: 'approved' }), 'malformed_response');
  assert.equal(await malformed((b) => b.catalog(), { items: {} }), 'malformed_response');
  assert.equal(await malformed((b) => b.createVerificationHandoff('w'), { url: 'https://privue.example/', expiresInSeconds: '120' }), 'malformed_response');
});

test('decoding keeps what the contract allows: extra members, a bare callback kind, unknown statuses for Privue, bad cards dropped', async () => {
  const { backend } = client((request) => {
    if (request.url.endsWith('/v2/catalog')) return respond(200, { items: [shareCard, { id: 'broken' }, { ...shareCard, id: 'item-2' }], next: null });
    if (request.url.endsWith('/v2/connect-sessions')) return respond(201, { sessionId: 's', hostedUrl: 'https://bb.example/', callback: 'custom-scheme', extra: 1 });
    if (request.url.endsWith('/v2/handoff-sessions')) return respond(201, { url: JOURNEY, expiresAt: 'soon' });
    return respond(200, { status: 'submitted_for_review', verificationId: 'v', more: true });
  });
  assert.deepEqual((await backend.catalog()).map((c) => c.id), ['item-1', 'item-2']);
  const session = await backend.createConnectSession('custom-scheme');
  assert.deepEqual([session.callbackKind, session.callback], ['custom-scheme', null]);
  assert.equal((await backend.createHandoffSession(attempt)).expiresAt, null);
  assert.equal((await backend.verification('w')).status, 'submitted_for_review');
});

test('development URL policy: loopback http only when the app opts in, for the base URL and for answers', async () => {
  assert.throws(() => new FetchBackendClient({ baseUrl: 'http://127.0.0.1:8080', tokenProvider: () => TOKEN }), (e: unknown) => e instanceof BatonConfigurationError && e.code === 'backend_url_not_https');
  assert.throws(() => new FetchBackendClient({ baseUrl: 'http://partner.example', tokenProvider: () => TOKEN, urlPolicy: DEVELOPMENT_URL_POLICY }), BatonConfigurationError);
  assert.throws(() => new FetchBackendClient({ baseUrl: 'not a url', tokenProvider: () => TOKEN }), BatonConfigurationError);
  const { backend } = client(() => respond(201, { url: 'http://127.0.0.1:9001/h/phs_1' }), { dev: true, baseUrl: 'http://localhost:9000' });
  assert.equal((await backend.createHandoffSession(attempt)).url.reveal(), 'http://127.0.0.1:9001/h/phs_1');
  const { backend: strict } = client(() => respond(201, { url: 'http://chia.example/h/phs_1' }), { dev: true, baseUrl: 'http://[::1]:9000' });
  assert.equal((await rejection(strict.createHandoffSession(attempt))).detail.kind, 'malformed_response');
  for (const host of ['localhost', '127.0.0.1', '127.255.0.9', '[::1]']) assert.ok(isLoopbackHost(host), host);
  for (const host of ['128.0.0.1', '127.0.0', '127.0.0.256', 'localhost.example', '0127.0.0.1', '[::2]']) assert.ok(!isLoopbackHost(host), host);
});

test('errors never carry the token, the request or a journey URL', async () => {
  const { backend } = client(() => respond(500, { code: 'internal_error', detail: 'x' }));
  const error = await rejection(backend.createHandoffSession(attempt));
  for (const text of [error.message, String(error), JSON.stringify(error), error.stack ?? '']) {
    assert.doesNotMatch(text, /secret-token|partner\.example|3f2504e0|phs_/);
  }
  assert.equal(error.message, 'backend answered 500 (internal_error)');
});

test('fetchTransport: no response is a TransportError (connect, timeout); a response keeps status, headers and body', async () => {
  const request: BackendRequest = { method: 'GET', url: 'https://p.example/v2/catalog', headers: { Authorization: 'Bearer t' }, body: null };
  const refused: FetchFunction = () => Promise.reject(new TypeError('fetch failed'));
  await assert.rejects(fetchTransport({ fetch: refused })(request), (e: unknown) => e instanceof TransportError && e.failure === 'connect');
  const hanging: FetchFunction = (_url, init) =>
    new Promise((_resolve, reject) => (init.signal as { addEventListener(t: string, l: () => void): void }).addEventListener('abort', () => reject(new Error('aborted'))));
  await assert.rejects(fetchTransport({ fetch: hanging, timeoutMillis: 10 })(request), (e: unknown) => e instanceof TransportError && e.failure === 'timeout');
  let seen: unknown = null;
  const ok: FetchFunction = async (url, init) => {
    seen = { url, init: { ...init, signal: undefined } };
    return { status: 503, headers: { get: (name: string) => (name.toLowerCase() === 'retry-after' ? '2' : null) }, text: async () => '{"code":"x"}' };
  };
  const response = await fetchTransport({ fetch: ok })({ ...request, method: 'POST', body: '{}' });
  assert.deepEqual([response.status, response.header('Retry-After'), response.body], [503, '2', '{"code":"x"}']);
  assert.deepEqual(seen, { url: request.url, init: { method: 'POST', headers: { Authorization: 'Bearer t' }, body: '{}', cache: 'no-store', credentials: 'omit', signal: undefined } });
});

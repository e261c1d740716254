import { test } from 'node:test';
import assert from 'node:assert/strict';
import { BatonLinkRouter } from '../src/core/linkRouter';
import { ReturnUrlRegistrationError } from '../src/core/returnLinks';
import { load } from './vectors';

const file = load('link-routing.v1.json');

function router(generic: boolean): BatonLinkRouter {
  const r = file.registration;
  return new BatonLinkRouter({
    bankConnect: r.bb,
    verification: r.privue,
    genericReturnHost: generic ? r.genericReturnHost : null,
  });
}

// Each case of link-routing.v1.json runs in sharedVectors.test.ts (and in scripts/conformance-report) as
// `link-routing.v1.json#link-routing/<id>`, through vectors.ts's checkLinkRoute.

test('a URL registered for both BB and Privue is refused', () => {
  let refused: unknown = null;
  try {
    new BatonLinkRouter({
      bankConnect: ['https://app.example.com/return'],
      verification: ['https://APP.example.com:443/return?x=1'],
      genericReturnHost: null,
    });
  } catch (error) {
    refused = error;
  }
  assert.ok(refused instanceof ReturnUrlRegistrationError && refused.code === 'registered_for_two_flows');
});

test('deliver hands the unchanged link to its flow only', () => {
  const seen: string[] = [];
  const link = 'https://app.example.com/bb-callback?sessionId=ses_1&resultCode=Ok';
  const handlers = {
    bankConnect: (url: string) => seen.push(`bb ${url}`),
    verification: (url: string) => seen.push(`privue ${url}`),
  };
  assert.deepEqual(router(true).deliver(link, handlers), { flow: 'bb', landing: false });
  router(true).deliver('https://news.example/', handlers);
  router(true).deliver('https://partner.example/', handlers);
  assert.deepEqual(seen, [`bb ${link}`]);
});

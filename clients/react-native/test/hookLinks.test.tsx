// The hooks and the app's own link handling go through BatonLinkRouter: a flow receives only the links the router
// gives it, and useLinkRouter answers the route (with its landing flag) of every link the OS delivers.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import * as React from 'react';
import TestRenderer, { act } from 'react-test-renderer';
import { Linking } from 'react-native';
import { BatonConfiguration } from '../src/configuration';
import { LinkRoute } from '../src/core/linkRouter';
import { useChiaHandoff, useLinkRouter } from '../src/hooks';
import { BB_RETURNS, configuration, ManualScheduler, MemoryStorage, PRIVUE_RETURN, ScriptedBackend, settle } from './support';

(globalThis as { IS_REACT_ACT_ENVIRONMENT?: boolean }).IS_REACT_ACT_ENVIRONMENT = true;
// eslint-disable-next-line @typescript-eslint/no-explicit-any
const stubLinking = Linking as any;

/** Privue's return path on the host Chia's generic return is approved for: the path decides (link-routing vectors). */
function sameHostConfiguration(): BatonConfiguration {
  const base = configuration(new ScriptedBackend(() => undefined), new MemoryStorage(), new ManualScheduler());
  return { ...base, returnUrls: { ...base.returnUrls, chiaGenericReturnHost: 'app.example.com' } };
}

test("useChiaHandoff: a Privue return on Chia's generic return host is Privue's, never marketplace home", async () => {
  const config = sameHostConfiguration();
  let home = 0;
  function Card(): null {
    useChiaHandoff(config, 'item-1', { openExternal: () => undefined, onMarketplaceHome: () => void (home += 1) });
    return null;
  }
  let renderer!: TestRenderer.ReactTestRenderer;
  await act(async () => {
    renderer = TestRenderer.create(<Card />);
    await settle();
  });
  await act(async () => stubLinking.emit(`${PRIVUE_RETURN}?verification_id=v1&status=completed`));
  await act(async () => stubLinking.emit(`${BB_RETURNS.https}?sessionId=s1&resultCode=Ok`));
  assert.equal(home, 0, 'a Privue or BB return is not the generic return');
  await act(async () => stubLinking.emit('https://app.example.com/?completed=true'));
  assert.equal(home, 1);
  await act(async () => renderer.unmount());
  assert.equal(stubLinking.listenerCount(), 0);
});

test('useLinkRouter: the launch URL and every delivered link, routed with the landing flag; released on unmount', async () => {
  const config = sameHostConfiguration();
  stubLinking.initialURL = `${BB_RETURNS.customScheme}?sessionId=s1&resultCode=Ok`;
  const seen: Array<[LinkRoute, string]> = [];
  function App(): null {
    useLinkRouter(config, (route, url) => seen.push([route, url]));
    return null;
  }
  let renderer!: TestRenderer.ReactTestRenderer;
  try {
    await act(async () => {
      renderer = TestRenderer.create(<App />);
      await settle();
    });
    await act(async () => stubLinking.emit(PRIVUE_RETURN));
    await act(async () => stubLinking.emit('https://app.example.com/anything'));
    await act(async () => stubLinking.emit('https://user@app.example.com/kyc/done'));
    await act(async () => stubLinking.emit('https://elsewhere.example/'));
    assert.deepEqual(seen, [
      [{ flow: 'bb', landing: false }, `${BB_RETURNS.customScheme}?sessionId=s1&resultCode=Ok`],
      [{ flow: 'privue', landing: true }, PRIVUE_RETURN],
      [{ flow: 'chia' }, 'https://app.example.com/anything'],
      [{ flow: null, reason: 'userinfo_present' }, 'https://user@app.example.com/kyc/done'],
      [{ flow: null, reason: 'unregistered_url' }, 'https://elsewhere.example/'],
    ]);
    await act(async () => renderer.unmount());
    assert.equal(stubLinking.listenerCount(), 0);
  } finally {
    stubLinking.initialURL = null;
  }
});

test('useLinkRouter: a launch URL that arrives after unmount is dropped', async () => {
  const config = sameHostConfiguration();
  stubLinking.initialURL = PRIVUE_RETURN;
  const seen: string[] = [];
  function App(): null {
    useLinkRouter(config, (_route, url) => seen.push(url));
    return null;
  }
  try {
    let renderer!: TestRenderer.ReactTestRenderer;
    act(() => {
      renderer = TestRenderer.create(<App />);
    });
    act(() => renderer.unmount());
    await settle();
    assert.deepEqual(seen, []);
  } finally {
    stubLinking.initialURL = null;
  }
});

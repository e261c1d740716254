// The React Native components and controller, rendered with react-test-renderer against the react-native stub.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import * as React from 'react';
import TestRenderer, { act, ReactTestInstance } from 'react-test-renderer';
import { Linking } from 'react-native';
import { ChiaEffects, ChiaHandoffController, ShareResult } from '../src/ChiaHandoffController';
import { CatalogCard, decodeCatalogCard } from '../src/core/catalogCard';
import { ChiaHandoffMachine, ChiaScreen } from '../src/core/chiaMachine';
import { GenericReturnParser } from '../src/core/returnLinks';
import { PendingAttempt, SensitiveUrl } from '../src/core/retry';
import { CatalogCardView, handleGenericReturn, openExternal, useGenericReturn } from '../src/Handoff';
import { shareCard } from './fixtures';

// eslint-disable-next-line @typescript-eslint/no-explicit-any
const stubLinking = Linking as any;
(globalThis as { IS_REACT_ACT_ENVIRONMENT?: boolean }).IS_REACT_ACT_ENVIRONMENT = true;

/** A fake app side that records every request and lets the test settle each one by hand. */
class FakeEffects implements ChiaEffects {
  requests: string[] = [];
  opened: string[] = [];
  saved: PendingAttempt[] = [];
  pendingShares: Array<(result: ShareResult) => void> = [];
  private keys = 0;
  fetchCard(): Promise<CatalogCard | null> {
    this.requests.push('GET /v2/catalog');
    return Promise.resolve(decodeCatalogCard(shareCard));
  }
  sendShare(attempt: PendingAttempt, body: string): Promise<ShareResult> {
    this.requests.push(`POST /v2/handoff-sessions ${attempt.key} ${body}`);
    return new Promise((resolve) => this.pendingShares.push(resolve));
  }
  saveAttempt(attempt: PendingAttempt): void {
    this.saved.push(attempt);
  }
  discardAttempt(): void {}
  openExternal(url: SensitiveUrl): void {
    this.opened.push(url.reveal());
  }
  requestSignIn(): void {}
  routeToMarketplaceHome(): void {}
  now(): number {
    return 0;
  }
  newKey(): string {
    this.keys += 1;
    return `00000000-0000-4000-8000-${String(this.keys).padStart(12, '0')}`;
  }
  schedule(): void {}
}

function Harness(props: { controller: ChiaHandoffController; listed: CatalogCard; screens: ChiaScreen[] }): React.ReactElement {
  const [screen, setScreen] = React.useState<ChiaScreen>(props.controller.machine.screen);
  props.screens.length = 0;
  props.screens.push(screen);
  React.useEffect(() => {
    harnessSetScreen = setScreen;
  }, []);
  return (
    <CatalogCardView
      listed={props.listed}
      screen={screen}
      onCallToAction={() => props.controller.callToAction()}
      onShare={() => props.controller.share()}
      onContinue={() => props.controller.continueWithoutSharing()}
    />
  );
}
let harnessSetScreen: (screen: ChiaScreen) => void = () => undefined;

async function mounted(): Promise<{ renderer: TestRenderer.ReactTestRenderer; effects: FakeEffects; controller: ChiaHandoffController }> {
  const effects = new FakeEffects();
  const listed = decodeCatalogCard(shareCard) as CatalogCard;
  const controller = new ChiaHandoffController(new ChiaHandoffMachine('item-1', null), effects, (s) => harnessSetScreen(s));
  let renderer!: TestRenderer.ReactTestRenderer;
  await act(async () => {
    renderer = TestRenderer.create(<Harness controller={controller} listed={listed} screens={[]} />);
  });
  return { renderer, effects, controller };
}

const byId = (root: ReactTestInstance, id: string) => root.find((n) => n.props.testID === id && typeof n.type === 'string');
const ids = (root: ReactTestInstance) =>
  root.findAll((n) => typeof n.type === 'string' && typeof n.props.testID === 'string').map((n) => n.props.testID as string);

test('nothing is requested before the tap; the tap requests only the projection', async () => {
  const { renderer, effects } = await mounted();
  assert.deepEqual(effects.requests, []);
  await act(async () => byId(renderer.root, 'action:cta').props.onPress());
  assert.deepEqual(effects.requests, ['GET /v2/catalog']);
  assert.deepEqual(stubLinking.opened, []);
});

test('reading order: blocks in block_order, then the disclosure, then the two actions', async () => {
  const { renderer } = await mounted();
  await act(async () => byId(renderer.root, 'action:cta').props.onPress());
  assert.deepEqual(ids(renderer.root).filter((id) => id !== 'card' && id !== 'disclosure'), [
    'block:image', 'block:title', 'block:summary', 'block:price', 'disclosure.heading', 'disclosure.body',
    'disclosure.recipient', 'disclosure.dataShared', 'disclosure.purpose', 'disclosure.compensationDisclosure',
    'disclosure.policyUrls', 'action.primary', 'action.secondary',
  ]);
});

test('both actions are equally usable buttons with their exact labels; no text is truncated', async () => {
  const { renderer } = await mounted();
  await act(async () => byId(renderer.root, 'action:cta').props.onPress());
  const primary = byId(renderer.root, 'action.primary');
  const secondary = byId(renderer.root, 'action.secondary');
  assert.equal(primary.props.accessibilityLabel, 'Share selection and continue');
  assert.equal(secondary.props.accessibilityLabel, 'Continue without sharing');
  for (const action of [primary, secondary]) {
    assert.equal(action.props.accessibilityRole, 'button');
    assert.deepEqual(action.props.accessibilityState, { disabled: false });
  }
  assert.deepEqual(primary.props.style, secondary.props.style);
  assert.equal(byId(renderer.root, 'block:image').props.accessibilityLabel, 'A clinician');
  assert.ok(renderer.root.findAll((n) => n.props.numberOfLines !== undefined).length === 0);
});

test('a double tap disables both actions at once and sends one request; one external navigation', async () => {
  const { renderer, effects } = await mounted();
  stubLinking.opened.length = 0;
  await act(async () => byId(renderer.root, 'action:cta').props.onPress());
  await act(async () => {
    byId(renderer.root, 'action.primary').props.onPress();
    byId(renderer.root, 'action.primary').props.onPress();
  });
  assert.equal(byId(renderer.root, 'action.primary').props.disabled, true);
  assert.equal(byId(renderer.root, 'action.secondary').props.disabled, true);
  assert.equal(effects.requests.filter((r) => r.startsWith('POST')).length, 1);
  await act(async () => effects.pendingShares[0]({ ok: true, url: new SensitiveUrl('https://chia.example/h/phs_1') }));
  assert.deepEqual(effects.opened, ['https://chia.example/h/phs_1']);
  assert.equal(effects.saved.length, 1);
  assert.doesNotMatch(JSON.stringify(effects.saved), /phs_/);
});

test('openExternal hands the URL unchanged to Linking.openURL', async () => {
  stubLinking.opened.length = 0;
  await openExternal(new SensitiveUrl('https://chia.example/h/phs_7Gq2xv?a=1#frag'));
  assert.deepEqual(stubLinking.opened, ['https://chia.example/h/phs_7Gq2xv?a=1#frag']);
});

test('the generic return validates only the host, ignores query and fragment, always routes home', () => {
  const parser = new GenericReturnParser('partner.example');
  let home = 0;
  const route = () => {
    home += 1;
  };
  assert.equal(handleGenericReturn(parser, 'https://partner.example/anything?status=paid#done', route), true);
  assert.equal(handleGenericReturn(parser, 'https://PARTNER.example/?completed=false', route), true);
  assert.equal(handleGenericReturn(parser, 'https://evil.example/?host=partner.example', route), false);
  assert.equal(handleGenericReturn(parser, 'http://partner.example/', route), false);
  assert.equal(handleGenericReturn(parser, 'https://partner.example:8443/', route), false);
  assert.equal(handleGenericReturn(parser, null, route), false);
  assert.equal(home, 2);
});

test('useGenericReturn listens to Linking URL events and the launch URL while mounted', async () => {
  stubLinking.initialURL = 'https://partner.example/cold?x=1';
  let home = 0;
  const route = () => {
    home += 1;
  };
  function Listener(): null {
    useGenericReturn('partner.example', route);
    return null;
  }
  let renderer!: TestRenderer.ReactTestRenderer;
  await act(async () => {
    renderer = TestRenderer.create(<Listener />);
  });
  assert.equal(home, 1);
  await act(async () => stubLinking.emit('https://partner.example/#fragment'));
  await act(async () => stubLinking.emit('https://other.example/'));
  assert.equal(home, 2);
  await act(async () => renderer.unmount());
  assert.equal(stubLinking.listenerCount(), 0);
  stubLinking.initialURL = null;
});

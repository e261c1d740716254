// The four defects of issue 28, each pinned by a test that failed before its fix: the share leaving before its
// attempt is persisted, a failed openExternal being ignored, a 0x0 card image, and TextDecoder/BOM in form decoding.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import * as React from 'react';
import TestRenderer, { act } from 'react-test-renderer';
import { ChiaEffects, ChiaHandoffController, ShareResult } from '../src/ChiaHandoffController';
import { CatalogCard, decodeCatalogCard } from '../src/core/catalogCard';
import { ChiaHandoffMachine, ChiaScreen } from '../src/core/chiaMachine';
import { firstField } from '../src/core/formQuery';
import { ConnectReturnParser } from '../src/core/returnLinks';
import { PendingAttempt, SensitiveUrl } from '../src/core/retry';
import { CatalogCardView } from '../src/Handoff';
import { shareCard } from './fixtures';

(globalThis as { IS_REACT_ACT_ENVIRONMENT?: boolean }).IS_REACT_ACT_ENVIRONMENT = true;

const flush = () => new Promise<void>((resolve) => setTimeout(resolve, 0));

/** App effects whose persistence and browser the test settles by hand. */
class SlowEffects implements ChiaEffects {
  log: string[] = [];
  saves: Array<() => void> = [];
  openResult: Promise<void> = Promise.resolve();
  fetchCard(): Promise<CatalogCard | null> {
    this.log.push('fetch');
    return Promise.resolve(decodeCatalogCard(shareCard));
  }
  sendShare(attempt: PendingAttempt): Promise<ShareResult> {
    this.log.push(`send ${attempt.key}`);
    return Promise.resolve({ ok: true, url: new SensitiveUrl('https://chia.example/h/phs_1') });
  }
  saveAttempt(attempt: PendingAttempt): Promise<void> {
    this.log.push(`save ${attempt.key}`);
    return new Promise((resolve) => this.saves.push(resolve));
  }
  discardAttempt(): Promise<void> {
    this.log.push('discard');
    return Promise.resolve();
  }
  openExternal(): Promise<void> {
    this.log.push('open');
    return this.openResult;
  }
  requestSignIn(): void {}
  routeToMarketplaceHome(): void {}
  now(): number {
    return 0;
  }
  newKey(): string {
    return '00000000-0000-4000-8000-000000000001';
  }
  schedule(): void {}
}

test('defect 1: the share request leaves only after saveAttempt has persisted the key and body', async () => {
  const effects = new SlowEffects();
  const controller = new ChiaHandoffController(new ChiaHandoffMachine('item-1', null), effects, () => undefined);
  controller.callToActionTapped();
  await flush();
  controller.shareTapped();
  await flush();
  assert.deepEqual(effects.log, ['fetch', 'save 00000000-0000-4000-8000-000000000001'], 'sent before the save finished');
  effects.saves[0]();
  await flush();
  assert.deepEqual(effects.log.slice(2), ['send 00000000-0000-4000-8000-000000000001', 'discard', 'open']);
});

test('defect 2: a failed openExternal ends the flow with a typed failure and a screen the app can show', async () => {
  const effects = new SlowEffects();
  effects.openResult = Promise.reject(new Error('no browser'));
  effects.openResult.catch(() => undefined);
  const screens: ChiaScreen[] = [];
  const failures: unknown[] = [];
  const controller = new ChiaHandoffController(new ChiaHandoffMachine('item-1', null), effects, (s) => screens.push(s));
  controller.onFailure = (f) => failures.push(f);
  controller.callToActionTapped();
  await flush();
  controller.continueTapped();
  await flush();
  await flush();
  // The machine refreshes the projection (Swift's browserFailedToOpen) and the app hears a typed failure.
  assert.deepEqual(effects.log, ['fetch', 'open', 'fetch']);
  assert.equal(screens[screens.length - 1].content, 'share_or_neutral');
  assert.equal(screens[screens.length - 1].continueEnabled, true);
  assert.deepEqual(failures, [{ flow: 'chia', code: 'browser_failed_to_open' }]);
});

test('defect 3: the card image has a size (React Native draws an unsized remote image 0x0)', async () => {
  const listed = decodeCatalogCard(shareCard) as CatalogCard;
  const screen: ChiaScreen = new ChiaHandoffMachine('item-1', null).screen;
  let renderer!: TestRenderer.ReactTestRenderer;
  await act(async () => {
    renderer = TestRenderer.create(
      <CatalogCardView listed={listed} screen={screen} onCallToAction={() => undefined} onShare={() => undefined} onContinue={() => undefined} />,
    );
  });
  const image = renderer.root.find((n) => n.props.testID === 'block:image' && typeof n.type === 'string');
  const style = (image.props.style ?? {}) as { width?: unknown; height?: unknown; aspectRatio?: unknown };
  const sized = (style.width !== undefined && style.height !== undefined) || (style.width !== undefined && style.aspectRatio !== undefined);
  assert.ok(sized, `image style ${JSON.stringify(image.props.style)} has no size`);
});

test('defect 4: %EF%BB%BF reads as U+FEFF (WHATWG UTF-8 decode without BOM), as Swift and Kotlin read it', () => {
  assert.equal(firstField('sessionId', 'sessionId=%EF%BB%BF'), '\uFEFF');
  assert.equal(firstField('sessionId', 'sessionId=%EF%BB%BFabc'), '\uFEFFabc');
  const parser = new ConnectReturnParser(['https://app.example/bb']);
  const parsed = parser.parse('https://app.example/bb?sessionId=%EF%BB%BF&resultCode=Ok');
  assert.ok(parsed.accepted);
  assert.equal(parsed.value.sessionId, '\uFEFF');
});

test('form decoding: ill-formed UTF-8 becomes U+FFFD per maximal subpart, as TextDecoder does', () => {
  const cases: Array<[string, string]> = [
    ['%C3%A9', '\u00E9'],
    ['%F0%9F%98%80', '\u{1F600}'],
    ['%FF', '\uFFFD'],
    ['%C3', '\uFFFD'],
    ['%C3%28', '\uFFFD('],
    ['%E0%80%AF', '\uFFFD\uFFFD\uFFFD'],
    ['%ED%A0%80', '\uFFFD\uFFFD\uFFFD'],
    ['%F0%9F%98', '\uFFFD'],
    ['%F4%90%80%80', '\uFFFD\uFFFD\uFFFD\uFFFD'],
    ['a+b%2', 'a b%2'],
    ['\u00E9%41', '\u00E9A'],
  ];
  for (const [raw, expected] of cases) assert.equal(firstField('v', `v=${raw}`), expected, raw);
});

test('a save that fails is reported (attempt_not_persisted) and the share still leaves, with the key kept in memory', async () => {
  const effects = new SlowEffects();
  effects.saveAttempt = (attempt: PendingAttempt) => {
    effects.log.push(`save ${attempt.key}`);
    return Promise.reject(new Error('disk full'));
  };
  const failures: unknown[] = [];
  const controller = new ChiaHandoffController(new ChiaHandoffMachine('item-1', null), effects, () => undefined);
  controller.onFailure = (f) => failures.push(f);
  controller.callToActionTapped();
  await flush();
  controller.shareTapped();
  await flush();
  assert.deepEqual(failures, [{ flow: 'chia', code: 'attempt_not_persisted' }]);
  assert.deepEqual(effects.log.slice(1, 3), ['save 00000000-0000-4000-8000-000000000001', 'send 00000000-0000-4000-8000-000000000001']);
});

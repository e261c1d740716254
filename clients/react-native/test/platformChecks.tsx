// The renderer-conformance accessibility and forbidden-behaviour cases that this shell can execute: the component
// rendered with react-test-renderer, driven through ChiaHandoffController with a recording fake backend.
import { format } from 'util';
import * as React from 'react';
import TestRenderer, { act, ReactTestInstance } from 'react-test-renderer';
import { Linking } from 'react-native';
import { BackendRequest, BackendResponse } from '../src/backend/BackendTransport';
import { ChiaHandoffController } from '../src/ChiaHandoffController';
import { BatonConfiguration, BatonStorage, storageKeys } from '../src/configuration';
import { CatalogCard, decodeCatalogCard } from '../src/core/catalogCard';
import { ChiaScreen } from '../src/core/chiaMachine';
import { SensitiveUrl } from '../src/core/retry';
import { createChiaHandoff } from '../src/flows';
import { CatalogCardView, openExternal } from '../src/Handoff';

// eslint-disable-next-line @typescript-eslint/no-explicit-any
type J = any;
// eslint-disable-next-line @typescript-eslint/no-explicit-any
const stubLinking = Linking as any;
(globalThis as { IS_REACT_ACT_ENVIRONMENT?: boolean }).IS_REACT_ACT_ENVIRONMENT = true;

const JOURNEY = 'https://chia.test/h/phs_Conformance1';

/**
 * Everything the app did, as a network and storage observer sees it: the package's own FetchBackendClient sends
 * through this recording transport (which answers as the partner backend would), and the flow persists through this
 * recording storage.
 */
class Recorder implements BatonStorage {
  requests: string[] = [];
  sent: BackendRequest[] = [];
  stored: string[] = [];
  constructor(private readonly cardJson: J) {}
  readonly transport = async (request: BackendRequest): Promise<BackendResponse> => {
    const path = request.url.replace(/^https:\/\/partner\.test/, '');
    this.requests.push(`${request.method} ${path}`);
    this.sent.push(request);
    const json = (status: number, body: unknown): BackendResponse => ({ status, header: () => null, body: JSON.stringify(body) });
    if (request.method === 'GET' && path === '/v2/catalog') return json(200, { items: [this.cardJson] });
    if (request.method === 'POST' && path === '/v2/handoff-sessions') return json(201, { expiresAt: '2026-01-01T00:10:00Z', url: JOURNEY });
    return json(404, { code: 'not_found', status: 404, title: 'Not Found', type: 'about:blank' });
  };
  async getItem(key: string): Promise<string | null> {
    this.stored.push(`get ${key}`);
    return null;
  }
  async setItem(key: string, value: string): Promise<void> {
    this.stored.push(`set ${key} ${value}`);
  }
  async removeItem(key: string): Promise<void> {
    this.stored.push(`remove ${key}`);
  }
}

interface Session {
  root: () => ReactTestInstance;
  recorder: Recorder;
  controller: ChiaHandoffController;
  logged: string[];
}

/** Mounts the card for `cardJson` on the package's own flow (createChiaHandoff), console captured, and runs `body`. */
async function session(cardJson: J, body: (s: Session) => Promise<void>): Promise<void> {
  const listed = decodeCatalogCard(cardJson) as CatalogCard;
  const recorder = new Recorder(cardJson);
  let setScreen: (screen: ChiaScreen) => void = () => undefined;
  const configuration: BatonConfiguration = {
    backendUrl: 'https://partner.test',
    tokenProvider: () => 'app-token',
    userId: 'user-1',
    storage: recorder,
    returnUrls: {},
    transport: recorder.transport,
    scheduler: { now: () => Date.parse('2026-01-01T00:00:00Z'), schedule: () => () => undefined },
  };
  const flow = createChiaHandoff(configuration, listed.id, { openExternal }, (s) => setScreen(s));
  await flow.start();
  const controller = flow.controller;
  function Host(): React.ReactElement {
    const [screen, set] = React.useState<ChiaScreen>(controller.machine.screen);
    setScreen = set;
    return (
      <CatalogCardView listed={listed} screen={screen} onCallToAction={() => controller.callToAction()}
        onShare={() => controller.share()} onContinue={() => controller.continueWithoutSharing()} />
    );
  }
  const logged: string[] = [];
  const saved = { log: console.log, warn: console.warn, error: console.error, info: console.info };
  const capture = (...args: unknown[]) => logged.push(format(...args));
  Object.assign(console, { log: capture, warn: capture, error: capture, info: capture });
  stubLinking.opened.length = 0;
  let renderer!: TestRenderer.ReactTestRenderer;
  try {
    await act(async () => {
      renderer = TestRenderer.create(<Host />);
    });
    await body({ root: () => renderer.root, recorder, controller, logged });
  } finally {
    Object.assign(console, saved);
    await act(async () => renderer.unmount());
  }
}

const hosts = (root: ReactTestInstance) => root.findAll((n) => typeof n.type === 'string');
const byId = (root: ReactTestInstance, id: string) => root.find((n) => n.props.testID === id && typeof n.type === 'string');
const press = (root: ReactTestInstance, id: string) => act(async () => byId(root, id).props.onPress());

/** The executable checks, by case id; a check answers null when it passed, else what failed. */
export const platformChecks: Record<string, (document: J) => Promise<string | null>> = {
  'reading-order': async (document) => {
    let failure: string | null = null;
    await session(document.fixtures.cards.share, async ({ root }) => {
      await press(root(), 'action:cta');
      const order = hosts(root())
        .map((n) => n.props.testID as string | undefined)
        .filter((id): id is string => id !== undefined && id !== 'card' && id !== 'disclosure');
      const blocks = (document.fixtures.cards.share.presentation_contract.block_order as string[]).map((b) => `block:${b}`);
      const expected = (document.accessibility.find((c: J) => c.id === 'reading-order').order as string[]).flatMap((entry) =>
        entry === 'block:*' ? blocks : [entry]);
      if (JSON.stringify(order) !== JSON.stringify(expected)) failure = `order ${JSON.stringify(order)}`;
    });
    return failure;
  },
  'equal-access': async (document) => {
    let failure: string | null = null;
    await session(document.fixtures.cards.share, async ({ root }) => {
      await press(root(), 'action:cta');
      const [a, b] = [byId(root(), 'action.primary'), byId(root(), 'action.secondary')];
      const same = (key: string) => JSON.stringify(a.props[key]) === JSON.stringify(b.props[key]);
      for (const key of ['accessibilityRole', 'accessibilityState', 'disabled', 'style']) if (!same(key)) failure = `${key} differs`;
      if (a.type !== b.type) failure = 'different components';
      if (a.props.accessibilityLabel !== 'Share selection and continue' || b.props.accessibilityLabel !== 'Continue without sharing') {
        failure = 'labels';
      }
    });
    return failure;
  },
  'image-alt': async (document) => {
    let failure: string | null = null;
    await session(document.fixtures.cards.share, async ({ root }) => {
      const image = byId(root(), 'block:image');
      if (image.props.accessibilityLabel !== document.fixtures.cards.share.image.alt) failure = 'alt text missing';
    });
    return failure;
  },
  'no-provider-request-before-tap': async (document) => {
    let failure: string | null = null;
    await session(document.fixtures.cards.share, async ({ recorder }) => {
      await act(async () => undefined);
      if (recorder.requests.length > 0 || stubLinking.opened.length > 0) failure = `before tap: ${recorder.requests}`;
    });
    return failure;
  },
  'no-embedded-browser': async (document) => {
    let failure: string | null = null;
    await session(document.fixtures.cards.share, async ({ root }) => {
      await press(root(), 'action:cta');
      await press(root(), 'action.primary');
      await act(async () => undefined);
      // Chia's journey goes to the OS browser through Linking; nothing embeds a browser in the card.
      const embedded = hosts(root()).filter((n) => /WebView|iframe|frame|object|embed/i.test(String(n.type)));
      if (embedded.length > 0) failure = `embedded ${embedded.map((n) => n.type)}`;
      if (JSON.stringify(stubLinking.opened) !== JSON.stringify([JOURNEY])) failure = `opened ${stubLinking.opened}`;
    });
    return failure;
  },
  'no-request-between-render-and-tap': async (document) => {
    let failure: string | null = null;
    await session(document.fixtures.cards.share, async ({ root, recorder }) => {
      await press(root(), 'action:cta');
      const afterRender = recorder.requests.length;
      await act(async () => undefined);
      if (recorder.requests.length !== afterRender || afterRender !== 1) failure = `requests ${recorder.requests}`;
    });
    return failure;
  },
  'journey-url-unchanged': async (document) => {
    let failure: string | null = null;
    await session(document.fixtures.cards.share, async ({ root, recorder }) => {
      await press(root(), 'action:cta');
      // A double tap: one share request, one navigation, to exactly the URL the response returned.
      await act(async () => {
        byId(root(), 'action.primary').props.onPress();
        byId(root(), 'action.primary').props.onPress();
      });
      await act(async () => undefined);
      const shares = recorder.requests.filter((r) => r === 'POST /v2/handoff-sessions').length;
      if (shares !== 1) failure = `${shares} share requests for a double tap`;
      if (JSON.stringify(stubLinking.opened) !== JSON.stringify([JOURNEY])) failure = `opened ${stubLinking.opened}`;
    });
    return failure;
  },
  'journey-url-not-persisted': async (document) => {
    let failure: string | null = null;
    await session(document.fixtures.cards.share, async ({ root, recorder }) => {
      await press(root(), 'action:cta');
      await press(root(), 'action.primary');
      await act(async () => undefined);
      if (!recorder.stored.some((entry) => entry.startsWith(`set ${storageKeys('user-1').chiaPendingAttempt} `))) failure = 'the attempt was never persisted';
      if (stubLinking.opened.length !== 1) failure = 'the journey was not opened';
      if (recorder.stored.some((entry) => entry.includes('phs_'))) failure = 'journey URL persisted';
      if (recorder.sent.some((request) => JSON.stringify(request).includes('phs_'))) failure = 'journey URL sent back to the backend';
    });
    return failure;
  },
  'journey-url-not-logged': async (document) => {
    let failure: string | null = null;
    await session(document.fixtures.cards.share, async ({ root, logged }) => {
      await press(root(), 'action:cta');
      await press(root(), 'action.primary');
      console.log('probe', new SensitiveUrl(JOURNEY), { url: new SensitiveUrl(JOURNEY) });
      if (logged.length === 0) failure = 'console capture did not work';
      if (logged.some((line) => line.includes('phs_'))) failure = 'journey URL in the console';
    });
    return failure;
  },
  'no-status-call': async (document) => {
    let failure: string | null = null;
    await session(document.fixtures.cards.share, async ({ root, recorder, controller }) => {
      await press(root(), 'action:cta');
      await press(root(), 'action.primary');
      await act(async () => controller.foregrounded());
      const expected = ['GET /v2/catalog', 'POST /v2/handoff-sessions', 'GET /v2/catalog'];
      if (JSON.stringify(recorder.requests) !== JSON.stringify(expected)) failure = `requests ${recorder.requests}`;
    });
    return failure;
  },
};

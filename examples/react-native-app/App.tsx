/**
 * The smallest React Native app on Baton (docs/react-native.md as an app): signs a test user in against
 * `baton serve --sandbox`, renders one catalog card, runs the three flows with the package's hooks, routes every
 * delivered link through `BatonLinkRouter` (`useLinkRouter`: `Linking` events and the launch URL), and signs out with
 * `signOut` so the next user finds nothing of the last. README.md says how to run it and what no machine here ran.
 */
import * as React from 'react';
import { Pressable, ScrollView, Text, TextInput, View } from 'react-native';
import AsyncStorage from '@react-native-async-storage/async-storage';
import * as WebBrowser from 'expo-web-browser';
import { WebView } from 'react-native-webview';
import {
  BatonConfiguration,
  CatalogCard,
  CatalogCardView,
  ConnectScreen,
  createBackendClient,
  DEVELOPMENT_URL_POLICY,
  expoWebBrowserAuthSession,
  LinkRoute,
  signOut,
  useBankConnect,
  useChiaHandoff,
  useLinkRouter,
  useVerification,
  VerificationJourney,
  VerificationScreen,
} from '@baton/react-native';

/**
 * `baton serve --sandbox --port 9080`: the backend on 9080, Chia, Privue and BB on 9081–9083 (8081 is Metro's). The
 * iOS Simulator reaches the Mac's loopback as its own; on Android run `adb reverse` for the four ports (README.md).
 * A real app puts its backend's https origin here and drops `urlPolicy`.
 */
const SANDBOX = 'http://127.0.0.1:9080';
/** Privue's workflow in the sandbox. */
const WORKFLOW = 'merchant-onboarding';
/** The return URLs the sandbox registers with its simulators (Sources/BatonCLI/Serve/SandboxDevelopment.swift). */
const RETURN_URLS: BatonConfiguration['returnUrls'] = {
  privue: ['https://app.example.com/kyc/done'],
  bb: { https: 'https://app.example.com/bb-callback', customScheme: 'acmewallet://bb-callback' },
  chiaGenericReturnHost: null,
};
/** BB's authentication session (ASWebAuthenticationSession / Custom Tabs), created once outside render. */
const BANK_SESSION = expoWebBrowserAuthSession(WebBrowser);

/**
 * The sandbox's sign-in for a test user: `POST /web/dev-token?user=ID` with this run's dev sign-in secret as
 * `X-Baton-Dev-Secret` (`baton serve --sandbox` prints it at start and writes it to `.baton/dev-sign-in-secret`;
 * a new one each run). It answers local requests only, and 403 without the secret.
 */
async function sandboxToken(userId: string, devSecret: string): Promise<string> {
  const secret = devSecret.trim();
  if (secret === '') throw new Error('paste the dev sign-in secret that baton serve --sandbox printed at start');
  const response = await fetch(`${SANDBOX}/web/dev-token?user=${encodeURIComponent(userId)}`, {
    method: 'POST',
    headers: { 'X-Baton-Dev-Secret': secret },
  });
  if (response.status === 403) {
    throw new Error('dev-token answered 403: copy the dev sign-in secret this run of baton serve --sandbox printed');
  }
  const body = (await response.json()) as { token?: unknown };
  if (response.status !== 200 || typeof body.token !== 'string') throw new Error(`dev-token answered ${response.status}`);
  return body.token;
}

/** One signed-in user's configuration: the flows keep what they keep under this user's own storage keys. */
function configurationFor(userId: string, token: string): BatonConfiguration {
  return {
    backendUrl: SANDBOX,
    tokenProvider: () => token,
    userId,
    storage: AsyncStorage,
    returnUrls: RETURN_URLS,
    urlPolicy: DEVELOPMENT_URL_POLICY, // the sandbox is plain http on loopback: development only, never ship it
  };
}

export default function App(): React.ReactElement {
  const [baton, setBaton] = React.useState<BatonConfiguration | null>(null);
  const [problem, setProblem] = React.useState<string | null>(null);
  // The sandbox's dev sign-in secret, pasted by the developer; kept in memory only, never logged or stored.
  const [devSecret, setDevSecret] = React.useState('');
  const signIn = (userId: string): void => {
    setProblem(null);
    sandboxToken(userId, devSecret).then(
      (token) => setBaton(configurationFor(userId, token)),
      (error: unknown) => setProblem(`Sign-in failed: ${String(error)}`),
    );
  };
  if (baton === null) {
    return (
      <View style={{ padding: 24 }}>
        <Text accessibilityRole="header">Baton sample</Text>
        <Text>Run `baton serve --sandbox --port 9080` first and paste the dev sign-in secret it prints.</Text>
        <TextInput
          testID="dev-secret"
          accessibilityLabel="Dev sign-in secret"
          placeholder="Dev sign-in secret"
          value={devSecret}
          onChangeText={setDevSecret}
          secureTextEntry
          autoCapitalize="none"
          autoCorrect={false}
        />
        <Button label="Sign in as test-user-1" onPress={() => signIn('test-user-1')} />
        <Button label="Sign in as test-user-2" onPress={() => signIn('test-user-2')} />
        {problem === null ? null : <Text>{problem}</Text>}
      </View>
    );
  }
  // A new user is a new configuration, so every hook below starts a new flow (`key` remounts the tree).
  return <SignedIn key={baton.userId} baton={baton} onSignedOut={() => setBaton(null)} />;
}

function SignedIn(props: { baton: BatonConfiguration; onSignedOut(): void }): React.ReactElement {
  const { baton } = props;
  const [card, setCard] = React.useState<CatalogCard | null>(null);
  const [section, setSection] = React.useState<'card' | 'verify' | 'connect'>('card');
  const [notice, setNotice] = React.useState<string | null>(null);

  React.useEffect(() => {
    let mounted = true;
    createBackendClient(baton)
      .catalog()
      .then(
        (cards) => {
          if (mounted) setCard(cards.find((c) => c.handoff.mode === 'share_or_neutral') ?? cards[0] ?? null);
        },
        (error: unknown) => mounted && setNotice(`The catalog could not be loaded: ${String(error)}`),
      );
    return () => {
      mounted = false;
    };
  }, [baton]);

  // Every link the OS delivers (and the one that launched the app) goes through the router: the flow hooks take
  // their own links from it; here the app only shows the flow's screen, or handles a link of its own.
  useLinkRouter(baton, (route: LinkRoute) => {
    if (route.flow === null) setNotice(`Not a Baton link (${route.reason}): the app's own routing takes it.`);
    else if (route.flow === 'bb') setSection('connect'); // a return, or the landing page's bare link (route.landing)
    else if (route.flow === 'privue') setSection('verify');
    else setSection('card'); // Chia's generic return: marketplace home
  });

  const verification = useVerification(baton, WORKFLOW);
  const connect = useBankConnect(baton, BANK_SESSION, { deviceSupportsHttpsCallback: false });

  if (verification.journey !== null) {
    // Privue's journey, full screen, in the camera web view (incognito: nothing outlives the visit).
    return <VerificationJourney WebView={WebView} {...verification.journey} />;
  }

  const signOutTapped = async (): Promise<void> => {
    // Stop this user's flows first, then forget what the SDK kept for them.
    verification.controller.stop();
    connect.controller.stop();
    try {
      await signOut(baton);
    } finally {
      props.onSignedOut();
    }
  };

  return (
    <ScrollView style={{ padding: 24 }}>
      <Text accessibilityRole="header">{`Signed in as ${baton.userId}`}</Text>
      {notice === null ? null : <Text>{notice}</Text>}
      <View style={{ flexDirection: 'row' }}>
        <Button label="Catalog" onPress={() => setSection('card')} />
        <Button label="Verify" onPress={() => setSection('verify')} />
        <Button label="Bank" onPress={() => setSection('connect')} />
      </View>
      {section === 'card' ? (
        card === null ? <Text>Loading the catalog…</Text> : <Card baton={baton} card={card} onHome={() => setSection('card')} />
      ) : null}
      {section === 'verify' ? (
        <View>
          <Text>{verificationLine(verification.screen)}</Text>
          <Button label="Verify your business" onPress={verification.verifyTapped} />
        </View>
      ) : null}
      {section === 'connect' ? (
        <View>
          <Text>{connectLine(connect.screen)}</Text>
          {connect.failure === null ? null : <Text>{`The sign-in sheet failed: ${connect.failure.code}`}</Text>}
          <Button label="Connect your bank" onPress={connect.connectTapped} />
        </View>
      ) : null}
      <Button label="Sign out" onPress={() => void signOutTapped()} />
    </ScrollView>
  );
}

/** The Chia card: rendered before any request; the call to action fetches a fresh projection. */
function Card(props: { baton: BatonConfiguration; card: CatalogCard; onHome(): void }): React.ReactElement {
  const chia = useChiaHandoff(props.baton, props.card.id, { onMarketplaceHome: props.onHome });
  return (
    <View>
      <CatalogCardView
        listed={props.card}
        screen={chia.screen}
        onCallToAction={chia.callToActionTapped}
        onShare={chia.shareTapped}
        onContinue={chia.continueTapped}
      />
      {chia.failure === null ? null : <Text>{`The browser did not open (${chia.failure.code}).`}</Text>}
    </View>
  );
}

function verificationLine(screen: VerificationScreen): string {
  switch (screen.content) {
    case 'ready':
      return 'Verify your business with Privue.';
    case 'opening':
      return 'Opening the verification…';
    case 'in_journey':
      return 'Verification open.';
    case 'could_not_start':
      return `The verification could not start (${screen.failure}). Try again.`;
    case 'confirming':
      return 'Checking the result with the server…';
    case 'settled':
      return `Verification: ${screen.status}.`;
    case 'check_later':
      return 'We could not confirm the result yet. Check again later.';
  }
}

function connectLine(screen: ConnectScreen): string {
  switch (screen.content) {
    case 'could_not_start':
      return `The bank connection could not start (${screen.failure}). Try again.`;
    case 'confirming':
      return 'Checking the connection with the server…';
    default:
      return `Bank connection: ${screen.content}.`;
  }
}

function Button(props: { label: string; onPress(): void }): React.ReactElement {
  return (
    <Pressable accessibilityRole="button" onPress={props.onPress} style={{ padding: 12 }}>
      <Text>{props.label}</Text>
    </Pressable>
  );
}

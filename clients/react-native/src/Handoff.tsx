/**
 * The React Native shell of seed 000's platform table (`react-native/Handoff.tsx`): the OS external browser through
 * `Linking.openURL`, the optional generic return handler, and the catalog card with its just-in-time disclosure.
 * The flow decisions live in ./core (pure, shared with the Kotlin and Flutter shells by transcription).
 */
import * as React from 'react';
import { Image, Linking, Pressable, Text, View } from 'react-native';
import {
  actionLabels,
  CatalogCard,
  CONTINUE_LABEL,
  CONTINUE_WITHOUT_SHARING_LABEL,
  SHARE_LABEL,
} from './core/catalogCard';
import { ChiaScreen } from './core/chiaMachine';
import { GenericReturnParser } from './core/returnLinks';
import { SensitiveUrl } from './core/retry';

/**
 * Opens `url` once in the OS external browser: Chia's journey or neutral page and its policy links only (BB's hosted
 * URL goes to an authentication session, `useBankConnect`). Never a WebView, never a fetch, preview or prefetch; the
 * caller must not keep the URL.
 */
export function openExternal(url: SensitiveUrl): Promise<void> {
  return Linking.openURL(url.reveal()).then(() => undefined);
}

/**
 * Routes a delivered link: when it is the registered generic return (https, the registered host, default port),
 * calls `routeToMarketplaceHome` and answers true. Query and fragment are ignored entirely; nothing is shown or
 * recorded about completion, and the route is the same whatever the journey did.
 */
export function handleGenericReturn(parser: GenericReturnParser, url: string | null, routeToMarketplaceHome: () => void): boolean {
  if (url === null || !parser.parse(url).accepted) return false;
  routeToMarketplaceHome();
  return true;
}

/**
 * Listens for the generic return (`Linking` URL events and the URL that launched the app) while mounted. It knows only
 * Chia's host: an app that also registers Privue or BB return URLs on that host uses `useLinkRouter` instead, which
 * tells their paths apart.
 */
export function useGenericReturn(registeredHost: string, routeToMarketplaceHome: () => void): void {
  React.useEffect(() => {
    const parser = new GenericReturnParser(registeredHost);
    let mounted = true;
    const subscription = Linking.addEventListener('url', (event) => {
      handleGenericReturn(parser, event.url, routeToMarketplaceHome);
    });
    Linking.getInitialURL().then((url) => {
      if (mounted) handleGenericReturn(parser, url, routeToMarketplaceHome);
    });
    return () => {
      mounted = false;
      subscription.remove();
    };
  }, [registeredHost, routeToMarketplaceHome]);
}

/** The label of the card's call to action (as the web reference shell). */
export const CALL_TO_ACTION_LABEL = 'Get started';

export interface CatalogCardViewProps {
  /** The card as the catalog listed it (rendered before the tap). */
  listed: CatalogCard;
  /** The flow's screen (from `ChiaHandoffMachine.screen`); its card, once fetched at tap time, wins. */
  screen: ChiaScreen;
  onCallToAction: () => void;
  onShare: () => void;
  onContinue: () => void;
}

/** The card image's box: the width of the card, 16:9. */
export const CARD_IMAGE_STYLE = Object.freeze({ width: '100%', aspectRatio: 16 / 9 });

function Blocks({ card }: { card: CatalogCard }): React.ReactElement {
  return (
    <>
      {card.blockOrder.map((block) => {
        switch (block) {
          case 'image':
            // A remote image without a size is drawn 0x0 by React Native: full width, a fixed 16:9 box.
            return (
              <Image
                key={block}
                testID="block:image"
                source={{ uri: card.image.url }}
                style={CARD_IMAGE_STYLE}
                resizeMode="cover"
                accessibilityRole="image"
                accessibilityLabel={card.image.alt}
              />
            );
          case 'title':
            return <Text key={block} testID="block:title" accessibilityRole="header">{card.title}</Text>;
          case 'summary':
            return <Text key={block} testID="block:summary">{card.summary}</Text>;
          case 'price':
            return <Text key={block} testID="block:price">{card.priceText}</Text>;
        }
      })}
    </>
  );
}

function Action(props: { id: string; label: string; enabled: boolean; onPress: () => void }): React.ReactElement {
  // Both actions are the same component: same role, size and enabled logic (seed 000 "equal-access actions").
  return (
    <Pressable
      testID={props.id}
      accessibilityRole="button"
      accessibilityLabel={props.label}
      accessibilityState={{ disabled: !props.enabled }}
      disabled={!props.enabled}
      onPress={props.onPress}
      style={{ minHeight: 48, alignSelf: 'stretch' }}
    >
      <Text>{props.label}</Text>
    </Pressable>
  );
}

/**
 * A catalog card and, after the tap, its disclosure: the blocks in `block_order`, then the disclosure (heading,
 * body, recipient, data shared, purpose, compensation, policy links), then the actions — the reading order of
 * renderer-conformance.v1.json. No text is truncated (no `numberOfLines`) and font scaling stays on. Nothing is
 * requested by rendering: every request starts from a tap, in the machine.
 */
export function CatalogCardView(props: CatalogCardViewProps): React.ReactElement | null {
  const { screen } = props;
  if (screen.content === 'hidden') return null;
  const card = screen.card ?? props.listed;
  const handoff = screen.card?.handoff;
  return (
    <View accessibilityLabel={card.title} testID="card">
      <Blocks card={card} />
      {screen.content === 'card' || screen.content === 'unavailable' ? (
        <Action id="action:cta" label={CALL_TO_ACTION_LABEL} enabled={true} onPress={props.onCallToAction} />
      ) : null}
      {screen.content === 'loading' ? <Text accessibilityRole="text">Loading…</Text> : null}
      {handoff !== undefined ? (
        <View testID="disclosure">
          <Text testID="disclosure.heading" accessibilityRole="header">{handoff.heading}</Text>
          <Text testID="disclosure.body">{handoff.body}</Text>
          {handoff.mode === 'share_or_neutral' ? (
            <>
              <Text testID="disclosure.recipient">
                {`Who receives it: ${handoff.recipient.legalName}. Privacy contact: ${handoff.recipient.privacyContact}`}
              </Text>
              <View testID="disclosure.dataShared" accessibilityRole="list">
                {handoff.dataShared.map((line, index) => <Text key={index}>{line}</Text>)}
              </View>
              <Text testID="disclosure.purpose">{`Why: ${handoff.purpose}`}</Text>
              <Text testID="disclosure.compensationDisclosure">{`How we are paid: ${handoff.compensationDisclosure}`}</Text>
              <View testID="disclosure.policyUrls">
                {handoff.policyUrls.map(([name, url]) => (
                  <Text key={name} accessibilityRole="link" onPress={() => void openExternal(new SensitiveUrl(url))}>
                    {name.charAt(0).toUpperCase() + name.slice(1)}
                  </Text>
                ))}
              </View>
            </>
          ) : null}
          {notice(screen)}
          {actionLabels(handoff).map((label) =>
            label === SHARE_LABEL ? (
              <Action key={label} id="action.primary" label={label} enabled={screen.shareEnabled} onPress={props.onShare} />
            ) : (
              <Action
                key={label}
                id={label === CONTINUE_LABEL ? 'action.neutral' : 'action.secondary'}
                label={label === CONTINUE_WITHOUT_SHARING_LABEL ? CONTINUE_WITHOUT_SHARING_LABEL : CONTINUE_LABEL}
                enabled={screen.continueEnabled}
                onPress={props.onContinue}
              />
            ),
          )}
        </View>
      ) : null}
    </View>
  );
}

function notice(screen: ChiaScreen): React.ReactElement | null {
  if (screen.notice === 'share_uncertain') {
    return <Text testID="notice">We could not confirm your share. Sharing again sends the same request.</Text>;
  }
  if (screen.notice === 'sign_in_required') {
    return <Text testID="notice">Please sign in again, then share: the same request is sent again.</Text>;
  }
  if (screen.notice === 'share_retry_later') {
    return <Text testID="notice">Sharing is busy. Tap share and we will send it as soon as we can, or continue without sharing.</Text>;
  }
  return null;
}

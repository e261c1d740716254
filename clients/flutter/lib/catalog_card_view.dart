// The catalog card and its just-in-time disclosure as a Flutter widget (seed 000 "Mobile test matrix"): blocks in
// block_order, then the disclosure, then the actions; both share_or_neutral actions are the same widget with the same
// size and enabled logic; no maxLines or ellipsis, so text scales without truncation. Rendering requests nothing.
// Reviewed source, syntax-checked in CI; NOT compiled here (no Dart SDK on the build machine).
import 'package:flutter/material.dart';

import 'handoff.dart';
import 'src/catalog_card.dart';
import 'src/chia_machine.dart';
import 'src/sensitive_url.dart';

/// The label of the card's call to action (as the web reference shell).
const String callToActionLabel = 'Get started';

class CatalogCardView extends StatelessWidget {
  const CatalogCardView({
    super.key,
    required this.listed,
    required this.screen,
    required this.onCallToAction,
    required this.onShare,
    required this.onContinue,
  });

  /// The card as the catalog listed it (rendered before the tap).
  final CatalogCard listed;

  /// The flow's screen (ChiaHandoffController.screen); its card, once fetched at tap time, wins.
  final ChiaScreen screen;
  final VoidCallback onCallToAction;
  final VoidCallback onShare;
  final VoidCallback onContinue;

  @override
  Widget build(BuildContext context) {
    if (screen.content == 'hidden') return const SizedBox.shrink();
    final card = screen.card ?? listed;
    final handoff = screen.card?.handoff;
    final children = <Widget>[..._blocks(card)];
    if (screen.content == 'card' || screen.content == 'unavailable') {
      children.add(_Action(label: callToActionLabel, enabled: true, onPressed: onCallToAction));
    }
    if (screen.content == 'loading') children.add(const Text('Loading…'));
    if (handoff != null) children.addAll(_disclosure(handoff));
    return Semantics(
      container: true,
      label: card.title,
      child: SingleChildScrollView(
        child: Column(crossAxisAlignment: CrossAxisAlignment.stretch, children: children),
      ),
    );
  }

  List<Widget> _blocks(CatalogCard card) {
    return card.blockOrder.map<Widget>((block) {
      switch (block) {
        case 'image':
          return Image.network(card.imageUrl, semanticLabel: card.imageAlt);
        case 'title':
          return Semantics(header: true, child: Text(card.title));
        case 'summary':
          return Text(card.summary);
        default:
          return Text(card.priceText);
      }
    }).toList();
  }

  List<Widget> _disclosure(MobileHandoff handoff) {
    final widgets = <Widget>[
      Semantics(header: true, child: Text(handoff.heading)),
      Text(handoff.body),
    ];
    if (handoff.isShare) {
      widgets.addAll([
        Text('Who receives it: ${handoff.recipientLegalName}. Privacy contact: ${handoff.recipientPrivacyContact}'),
        ...handoff.dataShared.map((line) => Text(line)),
        Text('Why: ${handoff.purpose}'),
        Text('How we are paid: ${handoff.compensationDisclosure}'),
        ...handoff.policyUrls.map((entry) => Semantics(
              link: true,
              child: TextButton(
                onPressed: () => openExternal(SensitiveUrl(entry[1])),
                child: Text(entry[0][0].toUpperCase() + entry[0].substring(1)),
              ),
            )),
      ]);
    }
    final notice = screen.notice;
    if (notice == ChiaNotice.signInRequired) {
      widgets.add(const Text('Please sign in again, then share: the same request is sent again.'));
    } else if (notice == ChiaNotice.shareUncertain) {
      widgets.add(const Text('We could not confirm your share. Sharing again sends the same request.'));
    } else if (notice == ChiaNotice.shareRetryLater) {
      widgets.add(const Text('Sharing is busy. Tap share and we will send it as soon as we can, or continue without sharing.'));
    }
    for (final label in handoff.actionLabels) {
      if (label == shareLabel) {
        widgets.add(_Action(label: label, enabled: screen.shareEnabled, onPressed: onShare));
      } else {
        widgets.add(_Action(label: label, enabled: screen.continueEnabled, onPressed: onContinue));
      }
    }
    return widgets;
  }
}

/// One action: a full-width button with its exact label as its accessible name; disabled while the flow says so.
class _Action extends StatelessWidget {
  const _Action({required this.label, required this.enabled, required this.onPressed});

  final String label;
  final bool enabled;
  final VoidCallback onPressed;

  @override
  Widget build(BuildContext context) {
    return Semantics(
      button: true,
      enabled: enabled,
      label: label,
      excludeSemantics: true,
      child: ConstrainedBox(
        constraints: const BoxConstraints(minHeight: 48),
        child: ElevatedButton(onPressed: enabled ? onPressed : null, child: Text(label)),
      ),
    );
  }
}

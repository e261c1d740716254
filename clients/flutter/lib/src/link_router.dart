// BatonLinkRouter: a URL the OS delivered (app_links' stringLinkStream) → the flow it belongs to (docs/CONTRACTS.md
// §1.2; Swift's BatonLinkRouter, clients/react-native/src/core/linkRouter.ts; vectors Conformance/link-routing.v1.json).
import 'dart:async';

import 'bank_connect_controller.dart';
import 'chia_handoff_controller.dart';
import 'configuration.dart';
import 'raw_url.dart';
import 'return_links.dart';
import 'verification_controller.dart';

/// The flows a link can belong to, by their wire names (`bb`, `privue`, `chia`).
enum LinkFlow { bb, privue, chia }

/// Where a link goes: a BB or Privue link ([landing]: the landing page's bare link, no query), Chia's generic return,
/// or no flow, with the [reason] (`unparseable_url`, `userinfo_present`, `unregistered_url`).
class LinkRoute {
  const LinkRoute.flow(LinkFlow this.flow, {this.landing = false}) : reason = null;
  const LinkRoute.none(String this.reason)
      : flow = null,
        landing = false;

  final LinkFlow? flow;
  final bool landing;
  final String? reason;

  @override
  bool operator ==(Object other) =>
      other is LinkRoute && other.flow == flow && other.landing == landing && other.reason == reason;

  @override
  int get hashCode => Object.hash(flow, landing, reason);

  @override
  String toString() => flow == null ? 'LinkRoute.none($reason)' : 'LinkRoute(${flow!.name}, landing: $landing)';
}

/// Sorts delivered links by the registered return URLs only — scheme, host, effective port, exact path — and never
/// by the query: whether a link is a return, and what it claims, stays with the flow's own parser. In order: a URL
/// that does not split strictly, or carries userinfo → none; a registered BB return URL → bb; a registered Privue
/// return URL → privue; https on Chia's approved generic return host, default port → chia; else none. A link for a
/// flow that is not running here is dropped; that flow asks its backend when it next starts or restores.
class BatonLinkRouter {
  /// The router for [configuration]'s return URLs, delivering to the controllers given (a flow without one drops
  /// its links).
  BatonLinkRouter(BatonConfiguration configuration,
      {BankConnectController? connect, VerificationController? verification, ChiaHandoffController? chia})
      : this.registered(
          bb: configuration.returnUrls.bb?.all ?? const [],
          privue: configuration.returnUrls.privue,
          genericReturnHost: configuration.returnUrls.chiaGenericReturnHost,
          connect: connect,
          verification: verification,
          chia: chia,
        );

  /// The router for these registrations. Throws [ReturnUrlRegistrationError] (`registered_for_two_flows`) when a
  /// URL is registered for both BB and Privue.
  BatonLinkRouter.registered({
    required List<String> bb,
    required List<String> privue,
    String? genericReturnHost,
    this.connect,
    this.verification,
    this.chia,
  })  : _bb = bb.map(RegisteredReturnUrl.new).toList(),
        _privue = privue.map(RegisteredReturnUrl.new).toList(),
        _generic = genericReturnHost == null ? null : GenericReturnParser(genericReturnHost) {
    for (final bb in _bb) {
      final parts = RawUrl.parse(bb.text);
      if (parts != null && _privue.any((privue) => privue.matches(parts))) {
        throw const ReturnUrlRegistrationError('registered_for_two_flows');
      }
    }
  }

  final BankConnectController? connect;
  final VerificationController? verification;
  final ChiaHandoffController? chia;
  final List<RegisteredReturnUrl> _bb;
  final List<RegisteredReturnUrl> _privue;
  final GenericReturnParser? _generic;

  /// Which flow [url] (exactly as the OS delivered it) belongs to.
  LinkRoute route(String url) {
    final parts = RawUrl.parse(url);
    if (parts == null) return const LinkRoute.none('unparseable_url');
    if (parts.userinfo != null) return const LinkRoute.none('userinfo_present');
    final landing = (parts.query ?? '').isEmpty;
    if (_bb.any((r) => r.matches(parts))) return LinkRoute.flow(LinkFlow.bb, landing: landing);
    if (_privue.any((r) => r.matches(parts))) return LinkRoute.flow(LinkFlow.privue, landing: landing);
    final generic = _generic;
    if (generic != null && generic.parse(url).accepted) return const LinkRoute.flow(LinkFlow.chia);
    return const LinkRoute.none('unregistered_url');
  }

  /// Routes [url] and hands it, unchanged, to its flow's controller (whose parser decides); answers the route.
  LinkRoute deliver(String url) {
    final route = this.route(url);
    switch (route.flow) {
      case LinkFlow.bb:
        connect?.returnLink(url);
      case LinkFlow.privue:
        verification?.returnLink(url);
      case LinkFlow.chia:
        chia?.returnLink(url);
      case null:
        break;
    }
    return route;
  }

  /// Follows a stream of delivered links, for example `AppLinks().stringLinkStream` (app_links 6.x delivers the
  /// link that launched the app on it too).
  StreamSubscription<String> listen(Stream<String> links) => links.listen(deliver);
}

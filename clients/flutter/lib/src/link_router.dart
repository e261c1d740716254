// BatonLinkRouter: any URL the OS delivers (app_links' stringLinkStream) → the flow whose registered return it is.
import 'dart:async';

import 'bank_connect_controller.dart';
import 'chia_handoff_controller.dart';
import 'configuration.dart';
import 'raw_url.dart';
import 'return_links.dart';
import 'verification_controller.dart';

/// Which flow a delivered link went to.
enum BatonLinkRoute { connect, verification, chia, none }

/// Hands each delivered link, raw, to the flow whose registered return URL (scheme, host, port, path) it names;
/// the flow's own parser then judges it strictly. A link no flow registered goes nowhere.
class BatonLinkRouter {
  BatonLinkRouter(BatonConfiguration configuration, {this.connect, this.verification, this.chia})
      : _connectUrls = (configuration.returnUrls.bb?.all ?? const <String>[]).map(RegisteredReturnUrl.new).toList(),
        _verificationUrls = configuration.returnUrls.privue.map(RegisteredReturnUrl.new).toList(),
        _generic = configuration.returnUrls.chiaGenericReturnHost == null
            ? null
            : GenericReturnParser(configuration.returnUrls.chiaGenericReturnHost!);

  final BankConnectController? connect;
  final VerificationController? verification;
  final ChiaHandoffController? chia;
  final List<RegisteredReturnUrl> _connectUrls;
  final List<RegisteredReturnUrl> _verificationUrls;
  final GenericReturnParser? _generic;

  /// Routes [url]; answers where it went.
  BatonLinkRoute route(String url) {
    final parts = RawUrl.parse(url);
    if (parts == null) return BatonLinkRoute.none;
    final connect = this.connect;
    if (connect != null && _connectUrls.any((r) => r.matches(parts))) {
      connect.returnLink(url);
      return BatonLinkRoute.connect;
    }
    final verification = this.verification;
    if (verification != null && _verificationUrls.any((r) => r.matches(parts))) {
      verification.returnLink(url);
      return BatonLinkRoute.verification;
    }
    final chia = this.chia;
    final generic = _generic;
    if (chia != null && generic != null && generic.parse(url).accepted) {
      chia.returnLink(url);
      return BatonLinkRoute.chia;
    }
    return BatonLinkRoute.none;
  }

  /// Follows a stream of delivered links, for example `AppLinks().stringLinkStream` (app_links 6.x delivers the
  /// link that launched the app on it too).
  StreamSubscription<String> listen(Stream<String> links) => links.listen(route);
}

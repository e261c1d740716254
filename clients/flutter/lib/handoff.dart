// The `flutter/handoff.dart` snippet of Chia's *Mobile handoff examples* platform table: the OS external browser
// through url_launcher in LaunchMode.externalApplication, and the optional generic return handler. The Chia flow
// itself is ChiaHandoffController (lib/src/chia_handoff_controller.dart).
// Reviewed source, syntax-checked in CI; NOT compiled here (no Dart SDK on the build machine). Its decisions are a
// transcription of the TypeScript and Kotlin shells, which run the shared Conformance/ vectors.
import 'dart:async';

import 'package:url_launcher/url_launcher.dart';

import 'src/return_links.dart';
import 'src/sensitive_url.dart';

/// Opens [url] once in the OS external browser: never a WebView, never a Custom Tab with a bridge, never a
/// prefetch. The caller must not keep the URL.
Future<bool> openExternal(SensitiveUrl url) async {
  // tryParse, not parse: a FormatException would carry the URL into whatever logs the error.
  final uri = Uri.tryParse(url.reveal());
  if (uri == null) return false;
  try {
    return await launchUrl(uri, mode: LaunchMode.externalApplication);
  } catch (_) {
    return false;
  }
}

/// Chia's optional generic return: validates only the registered host, ignores query and fragment, and always
/// routes to marketplace home; nothing about completion is shown or recorded.
class GenericReturnHandler {
  GenericReturnHandler(String registeredHost, this.routeToMarketplaceHome) : _parser = GenericReturnParser(registeredHost);

  final GenericReturnParser _parser;
  final void Function() routeToMarketplaceHome;

  /// Routes home when [url] is the generic return; answers whether it did.
  bool handle(String? url) {
    if (url == null || !_parser.parse(url).accepted) return false;
    routeToMarketplaceHome();
    return true;
  }

  /// Follows a stream of delivered links (for example `AppLinks().stringLinkStream` from the app_links package).
  StreamSubscription<String> listen(Stream<String> links) => links.listen(handle);
}

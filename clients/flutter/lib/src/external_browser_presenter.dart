// Chia in the OS external browser through url_launcher (`launchUrl(uri, mode: LaunchMode.externalApplication)`).
// Reviewed source: NOT compiled or run here (no Flutter SDK).
import 'package:url_launcher/url_launcher.dart';

import 'browser.dart';
import 'sensitive_url.dart';

/// The default [ExternalBrowserPresenter]: never a web view, never an in-app tab, never a prefetch.
class UrlLauncherPresenter implements ExternalBrowserPresenter {
  const UrlLauncherPresenter();

  @override
  Future<BrowserCompletion> present(SensitiveUrl url) async {
    // tryParse, not parse: a FormatException would carry the URL into whatever logs the error.
    final uri = Uri.tryParse(url.reveal());
    if (uri == null) return BrowserCompletion.failedToOpen;
    try {
      final opened = await launchUrl(uri, mode: LaunchMode.externalApplication);
      return opened ? BrowserCompletion.handedToSystem : BrowserCompletion.failedToOpen;
    } catch (_) {
      return BrowserCompletion.failedToOpen;
    }
  }
}

// Every decision Privue's camera web view makes (Privue *Handoff* "What the in-app browser must support";
// docs/CONTRACTS.md "Camera web view"), transcribed from Sources/BatonClient/Presentation/JourneyWebPolicy.swift, so
// the flutter_inappwebview widget only asks and obeys.
import 'raw_url.dart';
import 'return_links.dart';
import 'sensitive_url.dart';
import 'url_policy.dart';

/// A resource a page asks for (flutter_inappwebview's `PermissionResourceType`, reduced to what the policy needs).
enum MediaResource { camera, microphone, cameraAndMicrophone, other }

/// What to do with a navigation.
enum JourneyNavigationDecisionKind { allow, interceptReturn, cancel }

class JourneyNavigationDecision {
  const JourneyNavigationDecision._(this.kind, this.returnLink);

  static const allow = JourneyNavigationDecision._(JourneyNavigationDecisionKind.allow, null);
  static const cancel = JourneyNavigationDecision._(JourneyNavigationDecisionKind.cancel, null);

  /// Cancel it, close the web view and deliver [returnLink] as the journey's return.
  const JourneyNavigationDecision.interceptReturn(String this.returnLink) : kind = JourneyNavigationDecisionKind.interceptReturn;

  final JourneyNavigationDecisionKind kind;
  final String? returnLink;
}

/// The camera alone, and only for the journey's own origin (scheme, host, effective port); the microphone never, and
/// a request that cannot be narrowed to the camera is denied whole. A navigation matching a registered return URL
/// ends the journey with that link; other `https` navigations (the consent provider's domain and back) load;
/// `about:`, `blob:` and `data:` stay in-page; everything else is refused — except loopback `http` under
/// [UrlPolicy.development] (the local sandbox's journey).
class JourneyWebPolicy {
  factory JourneyWebPolicy(SensitiveUrl journeyUrl, List<RegisteredReturnUrl> returnUrls,
      {UrlPolicy urls = UrlPolicy.production}) {
    final parts = RawUrl.parse(journeyUrl.reveal());
    return JourneyWebPolicy._(
      parts == null ? '' : asciiLowercase(parts.scheme),
      parts == null ? '' : asciiLowercase(parts.host),
      parts?.effectivePort,
      returnUrls,
      urls,
    );
  }

  JourneyWebPolicy._(this._scheme, this._host, this._port, this._returnUrls, this._urls);

  final String _scheme;
  final String _host;
  final int? _port;
  final List<RegisteredReturnUrl> _returnUrls;
  final UrlPolicy _urls;

  /// Whether the journey URL itself may be loaded (a URL the policy cannot place is never shown).
  bool get canLoadJourney => _host.isNotEmpty && _urls.acceptsAsSecure(_scheme, _host);

  /// Whether a page at `scheme://host:port` may use the camera (port 0 or null: the scheme's default).
  bool grantsCamera(String scheme, String host, int? port) {
    final s = asciiLowercase(scheme);
    final effective = (port == null || port == 0) ? defaultPort(s) : port;
    return s == _scheme && asciiLowercase(host) == _host && effective == _port && canLoadJourney;
  }

  /// The resources to grant a page of [origin] (the string flutter_inappwebview reports) asking for [resources]:
  /// the camera alone to the journey's origin; empty means deny.
  List<MediaResource> grant(String origin, List<MediaResource> resources) {
    final parts = RawUrl.parse(origin);
    if (parts == null || parts.userinfo != null || !grantsCamera(parts.scheme, parts.host, parts.port)) return const [];
    // A combined camera-and-microphone request cannot be narrowed (WebKit asks once for both): deny it whole.
    if (resources.contains(MediaResource.cameraAndMicrophone)) return const [];
    return resources.contains(MediaResource.camera) ? const [MediaResource.camera] : const [];
  }

  /// What to do with a main-frame or sub-frame navigation to [url] (the raw string the web view reports).
  JourneyNavigationDecision decideNavigation(String url) {
    final parts = RawUrl.parse(url);
    if (parts == null) {
      final colon = url.indexOf(':');
      final scheme = colon < 0 ? '' : asciiLowercase(url.substring(0, colon));
      return const ['about', 'blob', 'data'].contains(scheme) ? JourneyNavigationDecision.allow : JourneyNavigationDecision.cancel;
    }
    if (parts.userinfo == null && _returnUrls.any((r) => r.matches(parts))) {
      return JourneyNavigationDecision.interceptReturn(url);
    }
    return parts.userinfo == null && parts.host.isNotEmpty && _urls.acceptsAsSecure(parts.scheme, parts.host)
        ? JourneyNavigationDecision.allow
        : JourneyNavigationDecision.cancel;
  }
}

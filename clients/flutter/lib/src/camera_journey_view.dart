// Privue in a camera web view through flutter_inappwebview 6.x (Privue *Handoff* "What the in-app browser must
// support"): the camera for the journey's own origin only (never the microphone), DOM storage and cookies kept for
// the whole visit, one instance, outbound https navigation allowed, and the registered return URL caught on
// navigation instead of loaded. Every decision is JourneyWebPolicy's. Reviewed source: NOT compiled or run here (no
// Flutter SDK); the calls follow flutter_inappwebview 6.x's published API (`InAppWebView`, `InAppWebViewSettings`,
// `onPermissionRequest` → `PermissionResponse`, `shouldOverrideUrlLoading` → `NavigationActionPolicy`, `WebUri`).
import 'dart:async';

import 'package:flutter/material.dart';
import 'package:flutter_inappwebview/flutter_inappwebview.dart';

import 'browser.dart';
import 'journey_web_policy.dart';
import 'sensitive_url.dart';

/// The camera web view for one Privue visit. It reports its end once, through [onEnd]: the return link it caught,
/// or the user's close.
class VerificationJourneyView extends StatefulWidget {
  const VerificationJourneyView({super.key, required this.url, required this.policy, required this.onEnd});

  final SensitiveUrl url;
  final JourneyWebPolicy policy;
  final void Function(BrowserCompletion completion) onEnd;

  @override
  State<VerificationJourneyView> createState() => _VerificationJourneyViewState();
}

class _VerificationJourneyViewState extends State<VerificationJourneyView> {
  bool _ended = false;

  void _end(BrowserCompletion completion) {
    if (_ended) return;
    _ended = true;
    widget.onEnd(completion);
  }

  static MediaResource _resource(PermissionResourceType type) {
    if (type == PermissionResourceType.CAMERA) return MediaResource.camera;
    if (type == PermissionResourceType.MICROPHONE) return MediaResource.microphone;
    if (type == PermissionResourceType.CAMERA_AND_MICROPHONE) return MediaResource.cameraAndMicrophone;
    return MediaResource.other;
  }

  Future<PermissionResponse> _permission(InAppWebViewController controller, PermissionRequest request) async {
    final granted = widget.policy.grant(request.origin.rawValue, request.resources.map(_resource).toList());
    if (granted.isEmpty) {
      return PermissionResponse(resources: request.resources, action: PermissionResponseAction.DENY);
    }
    // Android grants exactly the listed resources (the camera alone); iOS applies the action to its one resource.
    return PermissionResponse(resources: [PermissionResourceType.CAMERA], action: PermissionResponseAction.GRANT);
  }

  Future<NavigationActionPolicy> _navigation(InAppWebViewController controller, NavigationAction action) async {
    final raw = action.request.url?.rawValue;
    if (raw == null) return NavigationActionPolicy.CANCEL;
    final decision = widget.policy.decideNavigation(raw);
    switch (decision.kind) {
      case JourneyNavigationDecisionKind.allow:
        return NavigationActionPolicy.ALLOW;
      case JourneyNavigationDecisionKind.interceptReturn:
        _end(BrowserCompletion.returned(decision.returnLink!));
        return NavigationActionPolicy.CANCEL;
      case JourneyNavigationDecisionKind.cancel:
        return NavigationActionPolicy.CANCEL;
    }
  }

  /// A backstop for loads shouldOverrideUrlLoading does not see on Android (a redirect answering a POST): a page
  /// starting on the return URL ends the journey before it renders.
  void _loadStarted(InAppWebViewController controller, WebUri? url) {
    final raw = url?.rawValue;
    if (raw == null) return;
    final decision = widget.policy.decideNavigation(raw);
    if (decision.kind == JourneyNavigationDecisionKind.interceptReturn) {
      unawaited(controller.stopLoading());
      _end(BrowserCompletion.returned(decision.returnLink!));
    }
  }

  @override
  Widget build(BuildContext context) {
    return Scaffold(
      appBar: AppBar(
        leading: IconButton(
          icon: const Icon(Icons.close),
          tooltip: MaterialLocalizations.of(context).closeButtonTooltip,
          onPressed: () => _end(BrowserCompletion.closedWithoutReturn),
        ),
      ),
      body: InAppWebView(
        // forceToStringRawValue: the URL reaches the platform exactly as received, `#ticket=` included.
        initialUrlRequest: URLRequest(url: WebUri(widget.url.reveal(), forceToStringRawValue: true)),
        initialSettings: InAppWebViewSettings(
          javaScriptEnabled: true,
          domStorageEnabled: true,
          databaseEnabled: true,
          incognito: false,
          cacheEnabled: true,
          mediaPlaybackRequiresUserGesture: false,
          allowsInlineMediaPlayback: true,
          useShouldOverrideUrlLoading: true,
          supportMultipleWindows: false,
          javaScriptCanOpenWindowsAutomatically: false,
          allowFileAccess: false,
          allowContentAccess: false,
          allowFileAccessFromFileURLs: false,
          allowUniversalAccessFromFileURLs: false,
        ),
        onPermissionRequest: _permission,
        shouldOverrideUrlLoading: _navigation,
        onLoadStart: _loadStarted,
        onRenderProcessGone: (controller, detail) => _end(BrowserCompletion.failed),
        onWebContentProcessDidTerminate: (controller) => _end(BrowserCompletion.failed),
      ),
    );
  }
}

/// Erases what the camera web view kept for the visit — cookies and site storage — so the next user cannot open
/// Privue signed in as the last one (Privue *Handoff*: a new handoff "for a different user"). Android:
/// `WebStorage.deleteAllData`; iOS: `WKWebsiteDataStore` data of every type since the epoch.
Future<void> eraseJourneyWebData() async {
  await CookieManager.instance().deleteAllCookies();
  final storage = WebStorageManager.instance();
  if (defaultTargetPlatform == TargetPlatform.android) {
    await storage.deleteAllData();
  } else if (defaultTargetPlatform == TargetPlatform.iOS) {
    await storage.removeDataModifiedSince(
        dataTypes: WebsiteDataType.ALL, date: DateTime.fromMillisecondsSinceEpoch(0));
  }
}

/// The default [CameraJourneyPresenter]: pushes a full-screen [VerificationJourneyView] on [navigatorKey]'s
/// navigator and pops it when the journey ends or the flow dismisses it.
class InAppWebViewJourneyPresenter implements CameraJourneyPresenter {
  InAppWebViewJourneyPresenter(this.navigatorKey);

  final GlobalKey<NavigatorState> navigatorKey;
  Completer<BrowserCompletion>? _pending;
  Route<void>? _route;

  @override
  Future<BrowserCompletion> present(SensitiveUrl url, JourneyWebPolicy policy) {
    final navigator = navigatorKey.currentState;
    // WebUri prints a URL that Uri.parse rejects: never hand it one. One presentation at a time.
    if (navigator == null || _pending != null || !policy.canLoadJourney || Uri.tryParse(url.reveal()) == null) {
      return Future.value(BrowserCompletion.failedToOpen);
    }
    final completer = Completer<BrowserCompletion>();
    _pending = completer;
    final route = MaterialPageRoute<void>(
      fullscreenDialog: true,
      builder: (context) => VerificationJourneyView(url: url, policy: policy, onEnd: (end) => _finish(completer, end)),
    );
    _route = route;
    // Popped by the system back gesture: the user's close.
    navigator.push(route).then((_) => _finish(completer, BrowserCompletion.closedWithoutReturn));
    return completer.future;
  }

  @override
  void dismiss() {
    final pending = _pending;
    if (pending != null) _finish(pending, BrowserCompletion.cancelled);
  }

  void _finish(Completer<BrowserCompletion> completer, BrowserCompletion end) {
    if (!identical(_pending, completer) || completer.isCompleted) return;
    _pending = null;
    final route = _route;
    _route = null;
    if (route != null && route.isActive) route.navigator?.removeRoute(route);
    completer.complete(end);
  }
}

// The signed-in page: one catalog card (Chia), Privue's verification, BB's bank connect, every delivered link through
// BatonLinkRouter, lifecycle forwarded to the controllers, and sign-out.
import 'dart:async';

import 'package:app_links/app_links.dart';
import 'package:baton/baton.dart';
import 'package:flutter/material.dart';

import 'sandbox_sign_in.dart';

enum Section { card, verify, connect }

class SignedInPage extends StatefulWidget {
  const SignedInPage({super.key, required this.configuration, required this.navigatorKey, required this.onSignedOut});

  final BatonConfiguration configuration;
  final GlobalKey<NavigatorState> navigatorKey;
  /// Called once the user is signed out of the app; [problem] says what the device could not forget, if anything.
  final void Function(String? problem) onSignedOut;

  @override
  State<SignedInPage> createState() => _SignedInPageState();
}

class _SignedInPageState extends State<SignedInPage> with WidgetsBindingObserver {
  late final VerificationController _verification = VerificationController(
    configuration: widget.configuration,
    workflow: sandboxWorkflow,
    presenter: InAppWebViewJourneyPresenter(widget.navigatorKey),
    onFailure: _failed,
  );
  BankConnectController? _bankConnect;
  ChiaHandoffController? _chia;
  CatalogCard? _card;
  StreamSubscription<String>? _links;
  Section _section = Section.card;
  String? _notice;
  bool _ready = false;

  @override
  void initState() {
    super.initState();
    WidgetsBinding.instance.addObserver(this);
    unawaited(_start());
  }

  /// Creates the flows, restores what this user's storage kept (a share sent before a crash, a BB session left
  /// open), then routes links: the router hands each link to the controller it belongs to.
  Future<void> _start() async {
    // The sandbox's https return host is not this app's domain, so BB returns through the custom scheme (README).
    final bankConnect = await BankConnectController.launch(
        configuration: widget.configuration, httpsCallback: false, onFailure: _failed);
    if (!mounted) {
      bankConnect.dispose();
      return;
    }
    _bankConnect = bankConnect;
    await bankConnect.restore();
    try {
      final cards = await widget.configuration.backendClient().catalog();
      _card = cards.where((c) => c.handoff.isShare).firstOrNull ?? cards.firstOrNull;
    } on BackendError catch (error) {
      _notice = 'The catalog could not be loaded: ${error.kind.name}.';
    }
    if (!mounted) return;
    final card = _card;
    if (card != null) {
      final chia = ChiaHandoffController(
        configuration: widget.configuration,
        catalogItemId: card.id,
        onSignInRequired: () => _show('The sign-in expired: sign out and sign in again.'),
        onMarketplaceHome: () => setState(() => _section = Section.card),
        onFailure: _failed,
      );
      _chia = chia;
      await chia.restore();
    }
    if (!mounted) return;
    final router =
        BatonLinkRouter(widget.configuration, connect: _bankConnect, verification: _verification, chia: _chia);
    // app_links 6.x delivers the link that launched the app on this stream too.
    _links = AppLinks().stringLinkStream.listen((url) => _routed(router.deliver(url)));
    setState(() => _ready = true);
  }

  /// The router has already handed the link to its flow; the app only shows that flow's screen.
  void _routed(LinkRoute route) {
    if (!mounted) return;
    setState(() {
      switch (route.flow) {
        case LinkFlow.bb:
          _section = Section.connect; // a return, or the landing page's bare link (route.landing)
        case LinkFlow.privue:
          _section = Section.verify;
        case LinkFlow.chia:
          _section = Section.card; // Chia's generic return: marketplace home
        case null:
          _notice = "Not a Baton link (${route.reason}): the app's own routing takes it.";
      }
    });
  }

  void _failed(BatonFlowFailure failure) => _show('${failure.flow}: ${failure.code}');

  void _show(String notice) {
    if (mounted) setState(() => _notice = notice);
  }

  @override
  void didChangeAppLifecycleState(AppLifecycleState state) {
    if (state == AppLifecycleState.resumed) {
      _chia?.foregrounded();
      _verification.foregrounded();
      _bankConnect?.foregrounded();
    } else if (state == AppLifecycleState.paused) {
      _chia?.backgrounded();
      _verification.backgrounded();
      _bankConnect?.backgrounded();
    }
  }

  /// Stops this user's flows and link routing first, then forgets what the SDK kept for them (their pending share
  /// attempt and BB session) and erases the camera web view's cookies and storage.
  Future<void> _signOutTapped() async {
    await _links?.cancel();
    _links = null;
    _chia?.stop();
    _verification.stop();
    _bankConnect?.stop();
    String? problem;
    try {
      // An erase of the web view's data that fails is reported through onFailure, a store that fails by throwing.
      await signOut(widget.configuration, onFailure: (failure) => problem ??= 'web data not erased (${failure.code})');
    } catch (error) {
      problem = 'the stored attempt or session was not removed ($error)';
    }
    // Signed out of the app either way; the signed-out screen says what this device still holds.
    widget.onSignedOut(problem == null ? null : 'Signed out, but $problem.');
  }

  @override
  void dispose() {
    WidgetsBinding.instance.removeObserver(this);
    _links?.cancel();
    _chia?.dispose();
    _verification.dispose();
    _bankConnect?.dispose();
    super.dispose();
  }

  @override
  Widget build(BuildContext context) {
    return Scaffold(
      appBar: AppBar(
        title: Text('Signed in as ${widget.configuration.userId}'),
        actions: [TextButton(onPressed: _signOutTapped, child: const Text('Sign out'))],
      ),
      body: ListView(
        padding: const EdgeInsets.all(24),
        children: [
          if (_notice != null) Text(_notice!),
          SegmentedButton<Section>(
            segments: const [
              ButtonSegment(value: Section.card, label: Text('Catalog')),
              ButtonSegment(value: Section.verify, label: Text('Verify')),
              ButtonSegment(value: Section.connect, label: Text('Bank')),
            ],
            selected: {_section},
            onSelectionChanged: (selection) => setState(() => _section = selection.first),
          ),
          const SizedBox(height: 16),
          if (!_ready) const Text('Loading…') else _sectionView(),
        ],
      ),
    );
  }

  Widget _sectionView() {
    switch (_section) {
      case Section.card:
        final chia = _chia;
        final card = _card;
        if (chia == null || card == null) return const Text('No catalog card to show.');
        // The card is rendered before any request; the call to action fetches a fresh projection.
        return ListenableBuilder(
          listenable: chia,
          builder: (context, _) => CatalogCardView(
            listed: card,
            screen: chia.screen,
            onCallToAction: chia.callToActionTapped,
            onShare: chia.shareTapped,
            onContinue: chia.continueTapped,
          ),
        );
      case Section.verify:
        return ListenableBuilder(
          listenable: _verification,
          builder: (context, _) => Column(crossAxisAlignment: CrossAxisAlignment.start, children: [
            Text(verificationLine(_verification.screen)),
            const SizedBox(height: 8),
            FilledButton(onPressed: _verification.verifyTapped, child: const Text('Verify your business')),
          ]),
        );
      case Section.connect:
        final bankConnect = _bankConnect;
        if (bankConnect == null) return const Text('Loading…');
        return ListenableBuilder(
          listenable: bankConnect,
          builder: (context, _) => Column(crossAxisAlignment: CrossAxisAlignment.start, children: [
            Text(connectLine(bankConnect.screen)),
            const SizedBox(height: 8),
            FilledButton(onPressed: bankConnect.connectTapped, child: const Text('Connect your bank')),
          ]),
        );
    }
  }
}

// `Type _ =>` rather than `Type() =>`: the same match, in the form the syntax check's tree-sitter grammar parses.
String verificationLine(VerificationScreen screen) => switch (screen) {
      VerificationReady _ => 'Verify your business with Privue.',
      VerificationOpening _ => 'Opening the verification…',
      VerificationInJourney _ => 'Verification open.',
      VerificationCouldNotStart(:final failure) => 'The verification could not start (${failure.name}). Try again.',
      VerificationConfirming _ => 'Checking the result with the server…',
      VerificationSettled(:final status) => 'Verification: $status.',
      VerificationCheckLater _ => 'We could not confirm the result yet. Check again later.',
    };

String connectLine(ConnectScreen screen) => switch (screen) {
      ConnectCouldNotStart(:final failure) => 'The bank connection could not start (${failure.name}). Try again.',
      ConnectConfirming _ => 'Checking the connection with the server…',
      _ => 'Bank connection: ${screen.content}.',
    };

// The smallest Flutter app on Baton (docs/flutter.md as an app): signs a test user in against
// `baton serve --sandbox`, renders one catalog card, runs the three flows, routes every delivered link through
// BatonLinkRouter (app_links' stream, the launch link included) and signs out with signOut, so the next user finds
// nothing of the last. README.md says how to run it and that no machine here has compiled or run it.
import 'package:baton/baton.dart';
import 'package:flutter/material.dart';

import 'sandbox_sign_in.dart';
import 'signed_in.dart';

void main() => runApp(const BatonSampleApp());

class BatonSampleApp extends StatefulWidget {
  const BatonSampleApp({super.key});

  @override
  State<BatonSampleApp> createState() => _BatonSampleAppState();
}

class _BatonSampleAppState extends State<BatonSampleApp> {
  /// Privue's camera web view is pushed on this navigator (InAppWebViewJourneyPresenter).
  final GlobalKey<NavigatorState> _navigatorKey = GlobalKey<NavigatorState>();

  /// The sandbox's dev sign-in secret, pasted by the developer: in memory only, never logged or stored.
  final TextEditingController _devSecret = TextEditingController();
  BatonConfiguration? _configuration;
  String? _problem;
  bool _signingIn = false;

  Future<void> _signIn(String userId) async {
    setState(() {
      _problem = null;
      _signingIn = true;
    });
    try {
      final token = await sandboxToken(userId, _devSecret.text);
      if (!mounted) return;
      setState(() => _configuration = configurationFor(userId, token));
    } on SandboxSignInError catch (error) {
      if (mounted) setState(() => _problem = 'Sign-in failed: ${error.message}');
    } on BatonConfigurationError catch (error) {
      if (mounted) setState(() => _problem = 'Sign-in failed: ${error.code}');
    } finally {
      if (mounted) setState(() => _signingIn = false);
    }
  }

  void _signInWithDefinedToken() {
    try {
      setState(() => _configuration = configurationFor(definedUser, definedToken));
    } on BatonConfigurationError catch (error) {
      setState(() => _problem = 'Sign-in failed: ${error.code}');
    }
  }

  @override
  void dispose() {
    _devSecret.dispose();
    super.dispose();
  }

  @override
  Widget build(BuildContext context) {
    final configuration = _configuration;
    return MaterialApp(
      title: 'Baton sample',
      navigatorKey: _navigatorKey,
      home: configuration == null
          ? _signedOut(context)
          // A new user is a new configuration, so every controller below starts afresh (the key rebuilds the page).
          : SignedInPage(
              key: ValueKey(configuration.userId),
              configuration: configuration,
              navigatorKey: _navigatorKey,
              onSignedOut: (problem) => setState(() {
                _configuration = null;
                _problem = problem;
              }),
            ),
    );
  }

  Widget _signedOut(BuildContext context) => Scaffold(
        appBar: AppBar(title: const Text('Baton sample')),
        body: ListView(
          padding: const EdgeInsets.all(24),
          children: [
            const Text('Run `baton serve --sandbox` first and paste the dev sign-in secret it prints.'),
            TextField(
              controller: _devSecret,
              decoration: const InputDecoration(labelText: 'Dev sign-in secret'),
              obscureText: true,
              autocorrect: false,
              enableSuggestions: false,
            ),
            const SizedBox(height: 12),
            for (final user in const ['test-user-1', 'test-user-2'])
              Padding(
                padding: const EdgeInsets.only(bottom: 8),
                child: FilledButton(
                  onPressed: _signingIn ? null : () => _signIn(user),
                  child: Text('Sign in as $user'),
                ),
              ),
            if (definedToken.isNotEmpty)
              OutlinedButton(
                onPressed: _signInWithDefinedToken,
                child: Text('Sign in as $definedUser with the BATON_TOKEN given to flutter run'),
              ),
            if (_problem != null) Padding(padding: const EdgeInsets.only(top: 12), child: Text(_problem!)),
          ],
        ),
      );
}

// A transcription of clients/react-native/src/core/catalogCard.ts: the strict decoding of a GET /v2/catalog card.
import 'url_policy.dart';

const String continueLabel = 'Continue to Chia';
const String shareLabel = 'Share selection and continue';
const String continueWithoutSharingLabel = 'Continue without sharing';
const String sessionCreationPath = '/v2/handoff-sessions';

/// Seed 000's closed MobileHandoff union: `neutral_only` or `share_or_neutral`.
class MobileHandoff {
  const MobileHandoff.neutralOnly(this.heading, this.body, this.neutralUrl)
      : mode = 'neutral_only',
        recipientLegalName = '',
        recipientPrivacyContact = '',
        dataShared = const [],
        purpose = '',
        compensationDisclosure = '',
        policyUrls = const [],
        disclosureVersion = '';

  const MobileHandoff.shareOrNeutral(this.heading, this.body, this.recipientLegalName, this.recipientPrivacyContact,
      this.dataShared, this.purpose, this.compensationDisclosure, this.policyUrls, this.disclosureVersion, this.neutralUrl)
      : mode = 'share_or_neutral';

  final String mode;
  final String heading;
  final String body;
  final String recipientLegalName;
  final String recipientPrivacyContact;
  final List<String> dataShared;
  final String purpose;
  final String compensationDisclosure;
  final List<List<String>> policyUrls;
  final String disclosureVersion;

  /// `url` for neutral_only, `secondary.url` for share_or_neutral.
  final String neutralUrl;

  bool get isShare => mode == 'share_or_neutral';

  List<String> get actionLabels => isShare ? const [shareLabel, continueWithoutSharingLabel] : const [continueLabel];
}

/// One card of GET /v2/catalog, decoded strictly.
class CatalogCard {
  const CatalogCard(this.id, this.blockOrder, this.title, this.summary, this.priceText, this.imageUrl, this.imageAlt, this.handoff);

  final String id;
  final List<String> blockOrder;
  final String title;
  final String summary;
  final String priceText;
  final String imageUrl;
  final String imageAlt;
  final MobileHandoff handoff;

  static const List<String> blocks = ['image', 'title', 'summary', 'price'];

  /// Decodes [json] (as `jsonDecode` returns it) strictly; null when a renderer must leave the card out. URLs must be
  /// https ([urls] admits loopback http against the local sandbox).
  static CatalogCard? decode(Object? json, [UrlPolicy urls = UrlPolicy.production]) {
    try {
      final card = _object(json);
      final id = _nonEmpty(card['id']);
      final order = _strings(_object(card['presentation_contract'])['block_order']);
      if (order.length != blocks.length || order.toSet().length != blocks.length || !order.every(blocks.contains)) {
        throw const FormatException();
      }
      final title = _nonEmpty(card['title']);
      final summary = _nonEmpty(card['summary']);
      final priceText = _nonEmpty(card['priceText']);
      final image = _object(card['image']);
      final imageUrl = _httpsUrl(image['url'], urls);
      final alt = _string(image['alt']);
      return CatalogCard(id, order, title, summary, priceText, imageUrl, alt, _handoff(_object(card['handoff']), urls));
    } on FormatException {
      return null;
    }
  }

  static MobileHandoff _handoff(Map<String, Object?> h, UrlPolicy urls) {
    final mode = h['mode'];
    if (mode == 'neutral_only') {
      _onlyKeys(h, const ['mode', 'heading', 'body', 'actionLabel', 'url']);
      _literal(h['actionLabel'], continueLabel);
      return MobileHandoff.neutralOnly(_nonEmpty(h['heading']), _nonEmpty(h['body']), _httpsUrl(h['url'], urls));
    }
    if (mode != 'share_or_neutral') throw const FormatException();
    _onlyKeys(h, const [
      'mode', 'heading', 'body', 'recipient', 'dataShared', 'purpose', 'compensationDisclosure', 'policyUrls', 'primary',
      'secondary',
    ]);
    final recipient = _object(h['recipient']);
    _onlyKeys(recipient, const ['legal_name', 'privacy_contact']);
    final policies = _object(h['policyUrls']);
    final names = policies.keys.toList()..sort();
    final primary = _object(h['primary']);
    _onlyKeys(primary, const ['actionLabel', 'sessionCreationPath', 'disclosureVersion']);
    _literal(primary['actionLabel'], shareLabel);
    _literal(primary['sessionCreationPath'], sessionCreationPath);
    final secondary = _object(h['secondary']);
    _onlyKeys(secondary, const ['actionLabel', 'url']);
    _literal(secondary['actionLabel'], continueWithoutSharingLabel);
    return MobileHandoff.shareOrNeutral(
      _nonEmpty(h['heading']),
      _nonEmpty(h['body']),
      _nonEmpty(recipient['legal_name']),
      _nonEmpty(recipient['privacy_contact']),
      _strings(h['dataShared']),
      _string(h['purpose']),
      _string(h['compensationDisclosure']),
      names.map((name) => [name, _httpsUrl(policies[name], urls)]).toList(),
      _nonEmpty(primary['disclosureVersion']),
      _httpsUrl(secondary['url'], urls),
    );
  }

  static Map<String, Object?> _object(Object? value) {
    if (value is Map<String, Object?>) return value;
    throw const FormatException();
  }

  static String _string(Object? value) {
    if (value is String) return value;
    throw const FormatException();
  }

  static String _nonEmpty(Object? value) {
    final text = _string(value);
    if (text.isEmpty) throw const FormatException();
    return text;
  }

  static List<String> _strings(Object? value) {
    if (value is List) return value.map(_string).toList();
    throw const FormatException();
  }

  static String _httpsUrl(Object? value, UrlPolicy urls) {
    final text = _string(value);
    if (!urls.acceptsUrl(text)) throw const FormatException();
    return text;
  }

  static void _onlyKeys(Map<String, Object?> o, List<String> allowed) {
    for (final key in o.keys) {
      if (!allowed.contains(key)) throw const FormatException();
    }
  }

  static void _literal(Object? value, String expected) {
    if (value != expected) throw const FormatException();
  }
}

import BatonCrypto
import Foundation

/// The HTML of one landing page: a heading, one sentence, one large "Return to the app" link, the other ways back
/// (custom scheme, Android `intent:`) and the partner's store text.
///
/// Everything on the page comes from configuration; nothing from the request that loaded it (no query, no fragment:
/// they may carry a session id or a status, and the page says nothing about the outcome). No script, no image, no
/// external resource: its only style is the inline block below, allowed by its hash in the Content-Security-Policy.
struct ReturnLandingPage: Sendable, Hashable {
    /// The link the large button follows (`https://open.app.example.com/bb-callback`), if there is one.
    var primaryLink: String?
    /// The custom-scheme return without query (`acmewallet://bb-callback`), where one is registered for this path.
    var customSchemeLink: String?
    /// `intent://host/path#Intent;scheme=https;package=…;end`, when an Android app is configured.
    var androidIntentLink: String?
    /// The partner's text for a user without the app.
    var storeFallbackText: String?

    static let style = """
        body{margin:0;font-family:system-ui,sans-serif;line-height:1.5;color:#1b1b1f;background:#fff}\
        main{max-width:32rem;margin:0 auto;padding:1.5rem 1rem}\
        h1{font-size:1.5rem;margin:0 0 .5rem}\
        p{margin:0 0 1rem;overflow-wrap:anywhere}\
        .primary{display:block;box-sizing:border-box;width:100%;padding:1rem;border-radius:.75rem;\
        background:#0b57d0;color:#fff;font-size:1.25rem;font-weight:600;text-align:center;text-decoration:none}\
        .primary:focus-visible{outline:3px solid #1b1b1f;outline-offset:3px}\
        ul{padding-left:1.25rem;margin:0 0 1rem}li{margin:.5rem 0}a{color:#0b57d0;overflow-wrap:anywhere}
        """

    /// The CSP source for ``style``: `'sha256-<base64>'`.
    static let styleHashSource = "'sha256-" + Data(SHA256.hash(Array(style.utf8))).base64EncodedString() + "'"

    /// `Content-Security-Policy`: nothing may load or run; only the inline style with this hash applies.
    static let contentSecurityPolicy = [
        "default-src 'none'", "style-src \(styleHashSource)", "img-src 'none'", "script-src 'none'",
        "base-uri 'none'", "form-action 'none'", "frame-ancestors 'none'",
    ].joined(separator: "; ")

    /// The page.
    var html: String {
        var links: [String] = []
        if let customSchemeLink {
            links.append(#"<li><a href="\#(Self.escape(customSchemeLink))">Open the app with its own link</a></li>"#)
        }
        if let androidIntentLink {
            links.append(#"<li><a href="\#(Self.escape(androidIntentLink))">Open the Android app</a></li>"#)
        }
        let primary =
            primaryLink.map { #"<p><a class="primary" href="\#(Self.escape($0))">Return to the app</a></p>"# } ?? ""
        let other =
            links.isEmpty
            ? "" : "<p>If that does not open the app:</p>\n<ul>\n" + links.joined(separator: "\n") + "\n</ul>\n"
        let store =
            "<p>"
            + Self.escape(storeFallbackText ?? "If the app does not open, check that it is installed and up to date.")
            + "</p>\n"
        return """
            <!doctype html>
            <html lang="en">
            <head>
            <meta charset="utf-8">
            <meta name="viewport" content="width=device-width, initial-scale=1">
            <meta name="robots" content="noindex, nofollow">
            <meta name="referrer" content="no-referrer">
            <title>Return to the app</title>
            <style>\(Self.style)</style>
            </head>
            <body data-page="return-landing">
            <main>
            <h1>Back to the app</h1>
            <p>Continue in the app to see where things stand.</p>
            \(primary)
            \(other)\(store)</main>
            </body>
            </html>

            """
    }

    /// Escapes text for an HTML text node or a double-quoted attribute.
    static func escape(_ text: String) -> String {
        var escaped = ""
        escaped.reserveCapacity(text.utf8.count)
        for character in text {
            switch character {
            case "&": escaped += "&amp;"
            case "<": escaped += "&lt;"
            case ">": escaped += "&gt;"
            case "\"": escaped += "&quot;"
            case "'": escaped += "&#39;"
            default: escaped.append(character)
            }
        }
        return escaped
    }
}

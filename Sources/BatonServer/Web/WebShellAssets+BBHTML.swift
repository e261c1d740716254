// The web shell's `bb.html`, served at `/web/bb.html`. Edit the text here: it is the only copy (no build
// step, no resource bundle). The literal is raw (`#"""`), so backslashes are the file's own; the
// compiler strips the 8-space indentation of the closing delimiter, and the literal ends with a newline
// because the line before that delimiter is empty.

extension WebShellAssets {
    static let bbHTML = #"""
        <!doctype html>
        <html lang="en">
        <head>
        <meta charset="utf-8">
        <meta name="viewport" content="width=device-width, initial-scale=1">
        <meta name="referrer" content="no-referrer">
        <title>Connect a bank · Baton web reference shell</title>
        <link rel="stylesheet" href="/web/shell.css">
        <script src="/web/shell.js" defer></script>
        </head>
        <body data-page="bb">
        <header class="site">
        <nav aria-label="Flows">
        <ul>
        <li><a href="/web/">Catalog</a></li>
        <li><a href="/web/privue.html">Verify identity</a></li>
        <li><a href="/web/bb.html" aria-current="page">Connect a bank</a></li>
        </ul>
        </nav>
        </header>
        <main id="main">
        <h1>Connect a bank account</h1>
        <section id="sign-in" class="panel" aria-labelledby="sign-in-heading" hidden>
        <h2 id="sign-in-heading">Sign in</h2>
        <form id="dev-sign-in" class="stack">
        <p>Sandbox only: pick a user and the backend issues a development token.</p>
        <label for="dev-user">User id</label>
        <input id="dev-user" name="user" autocomplete="off" required value="user-1">
        <button type="submit" class="action">Sign in to the sandbox</button>
        </form>
        <form id="token-sign-in" class="stack">
        <p>Or use a token from your partner sign-in.</p>
        <label for="token-input">Bearer token</label>
        <textarea id="token-input" name="token" autocomplete="off" spellcheck="false" rows="3" required></textarea>
        <button type="submit" class="action">Use this token</button>
        </form>
        </section>
        <section id="flow" class="panel stack" aria-labelledby="flow-heading" hidden>
        <h2 id="flow-heading">BB bank connect</h2>
        <p>You continue at BB's hosted connect flow. When you come back, this page asks the partner backend for the
        confirmed result: the return link alone is never treated as the outcome.</p>
        <button type="button" class="action" id="start">Connect a bank</button>
        <h3>Result</h3>
        <p id="result">No connection checked yet.</p>
        <button type="button" class="action" id="refresh">Check the result</button>
        </section>
        <p id="status" role="status" aria-live="polite"></p>
        </main>
        </body>
        </html>

        """#
}

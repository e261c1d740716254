// The web shell's `privue.html`, served at `/web/privue.html`. Edit the text here: it is the only copy (no build
// step, no resource bundle). The literal is raw (`#"""`), so backslashes are the file's own; the
// compiler strips the 8-space indentation of the closing delimiter, and the literal ends with a newline
// because the line before that delimiter is empty.

extension WebShellAssets {
    static let privueHTML = #"""
        <!doctype html>
        <html lang="en">
        <head>
        <meta charset="utf-8">
        <meta name="viewport" content="width=device-width, initial-scale=1">
        <meta name="referrer" content="no-referrer">
        <title>Verify identity · Baton web reference shell</title>
        <link rel="stylesheet" href="/web/shell.css">
        <script src="/web/shell.js" defer></script>
        </head>
        <body data-page="privue">
        <header class="site">
        <nav aria-label="Flows">
        <ul>
        <li><a href="/web/">Catalog</a></li>
        <li><a href="/web/privue.html" aria-current="page">Verify identity</a></li>
        <li><a href="/web/bb.html">Connect a bank</a></li>
        </ul>
        </nav>
        </header>
        <main id="main">
        <h1>Verify your identity</h1>
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
        <h2 id="flow-heading">Privue verification</h2>
        <p>You continue in Privue's hosted journey, already signed in. When you come back, this page asks the partner
        backend for the confirmed result.</p>
        <form id="start-form" class="stack">
        <p>Workflow: <span id="workflow">merchant-onboarding</span></p>
        <button type="submit" class="action" id="start">Start verification</button>
        </form>
        <h3>Result</h3>
        <p id="result">No verification checked yet.</p>
        <button type="button" class="action" id="refresh">Check the result</button>
        </section>
        <p id="status" role="status" aria-live="polite"></p>
        </main>
        </body>
        </html>

        """#
}

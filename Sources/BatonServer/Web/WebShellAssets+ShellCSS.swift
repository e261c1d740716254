// The web shell's `shell.css`, served at `/web/shell.css`. Edit the text here: it is the only copy (no build
// step, no resource bundle). The literal is raw (`#"""`), so backslashes are the file's own; the
// compiler strips the 8-space indentation of the closing delimiter, and the literal ends with a newline
// because the line before that delimiter is empty.

extension WebShellAssets {
    static let shellCSS = #"""
        /* Baton web reference shell. Sizes in rem/em so the user's text size scales everything; nothing clips or
           truncates text, and nothing has a fixed width, so 320 CSS px at 200% text keeps every word and action. */
        :root {
          color-scheme: light;
          --ink: #1b1f24;
          --muted: #4a5360;
          --paper: #ffffff;
          --panel: #f4f6f8;
          --line: #9aa4b1;
          --accent: #0b5cad;
          --accent-ink: #ffffff;
          --focus: #b3261e;
          --radius: 0.5rem;
        }

        *, *::before, *::after { box-sizing: border-box; }

        /* `hidden` must win over the flex layouts below. */
        [hidden] { display: none !important; }

        html { -webkit-text-size-adjust: 100%; text-size-adjust: 100%; }

        body {
          margin: 0;
          font-family: system-ui, -apple-system, "Segoe UI", Roboto, sans-serif;
          font-size: 1rem;
          line-height: 1.5;
          color: var(--ink);
          background: var(--paper);
          overflow-wrap: anywhere;
          word-break: normal;
        }

        /* Gutters in px: larger text should get the width, not the margins. */
        main, header.site { padding: 1rem 12px; max-width: 40rem; margin: 0 auto; }

        header.site ul { list-style: none; margin: 0; padding: 0; display: flex; flex-wrap: wrap; gap: 0.5rem 1rem; }

        h1 { font-size: 1.5rem; line-height: 1.2; margin: 0 0 1rem; }
        h2 { font-size: 1.125rem; line-height: 1.25; margin: 0; }
        h3 { font-size: 1.0625rem; line-height: 1.3; margin: 0; }
        p, ul, dl { margin: 0; }

        a { color: var(--accent); text-underline-offset: 0.15em; }

        .cards { display: flex; flex-direction: column; gap: 1.5rem; }

        .card, .panel {
          border: 1px solid var(--line);
          border-radius: var(--radius);
          padding: 1rem 12px;
          background: var(--paper);
          display: flex;
          flex-direction: column;
          gap: 0.75rem;
          min-width: 0;
        }

        .panel { background: var(--panel); margin-bottom: 1.5rem; }

        .stack { display: flex; flex-direction: column; gap: 0.75rem; }

        .card img { display: block; width: 100%; height: auto; border-radius: calc(var(--radius) / 2); }

        .price { font-weight: 700; }

        .disclosure {
          border-top: 1px solid var(--line);
          padding-top: 0.75rem;
          display: flex;
          flex-direction: column;
          gap: 0.75rem;
        }

        .disclosure dt { font-weight: 700; }
        .disclosure dd { margin: 0 0 0.5rem; }
        .disclosure ul { padding-left: 1.1em; }

        .actions { display: flex; flex-direction: column; gap: 0.75rem; }

        /* Both consent actions look and size the same: equal access, no nudge towards sharing. */
        .action {
          display: block;
          width: 100%;
          min-height: 2.75rem;
          padding: 0.625rem 8px;
          font: inherit;
          font-weight: 600;
          text-align: center;
          white-space: normal;
          color: var(--accent-ink);
          background: var(--accent);
          border: 2px solid var(--accent);
          border-radius: var(--radius);
          cursor: pointer;
          transition: background-color 150ms ease-in-out, box-shadow 150ms ease-in-out;
        }

        .action:hover { background: #084a8c; }
        .action:disabled { cursor: not-allowed; opacity: 0.6; }
        .action[aria-busy="true"]::after {
          content: "";
          display: inline-block;
          width: 0.9em;
          height: 0.9em;
          margin-left: 0.5em;
          vertical-align: -0.1em;
          border: 0.15em solid currentColor;
          border-right-color: transparent;
          border-radius: 50%;
          animation: spin 800ms linear infinite;
        }

        :focus-visible { outline: 3px solid var(--focus); outline-offset: 2px; }

        input, textarea {
          font: inherit;
          width: 100%;
          min-height: 2.75rem;
          padding: 0.5rem;
          border: 1px solid var(--muted);
          border-radius: calc(var(--radius) / 2);
        }

        textarea { resize: vertical; overflow-wrap: anywhere; }

        label { font-weight: 600; }

        #status:empty { display: none; }
        #status { margin: 0 0 1rem; padding: 0.75rem; border-left: 0.25rem solid var(--accent); background: var(--panel); }

        @keyframes spin { to { transform: rotate(360deg); } }

        @media (prefers-reduced-motion: reduce) {
          *, *::before, *::after {
            animation: none !important;
            transition: none !important;
            scroll-behavior: auto !important;
          }
        }

        """#
}

/// The web shell's files, compiled into the binary as string constants (one Swift file per asset,
/// `WebShellAssets+*.swift`), so serving them never depends on a resource bundle or a path on disk: a moved or copied
/// `baton` binary serves the same shell.
enum WebShellAssets {
    /// Every served file by name, as `/web/<name>`.
    static let all: [String: String] = [
        "index.html": indexHTML,
        "bb.html": bbHTML,
        "privue.html": privueHTML,
        "shell.css": shellCSS,
        "shell.js": shellJS,
    ]
}

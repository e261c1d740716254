/// The web shell's files: `Web/Files/` in this target, embedded into the binary at build time by the
/// `EmbedTextFiles` plugin (``EmbeddedFiles``), so serving them never depends on a resource bundle or a path on disk:
/// a moved or copied `baton` binary serves the same shell. The three pages share `Web/Files/_nav.html`, expanded into
/// each at build time.
enum WebShellAssets {
    /// The folder, under the target, whose files the shell serves.
    static let folder = "Web/Files/"

    /// Every served file by name, as `/web/<name>`.
    static let all: [String: String] = Dictionary(
        uniqueKeysWithValues: EmbeddedFiles.all.compactMap { path, text in
            path.hasPrefix(folder) ? (String(path.dropFirst(folder.count)), text) : nil
        })
}

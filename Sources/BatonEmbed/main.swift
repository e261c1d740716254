import Foundation

/// The build-time tool behind the `EmbedTextFiles` plugin: writes one Swift file holding the text of each input file
/// as a string constant, so the product serves them from memory (no resource bundle, no path on disk).
///
/// `BatonEmbed <output.swift> <root folder> <file>...`: each file is keyed by its path under the root folder and named
/// by its file name (`shell.js` → `shellJS`). A file whose name starts with `_` is a partial: not embedded itself,
/// but an HTML line `<!-- include _nav.html current="/web/bb.html" -->` is replaced by that partial from the same
/// folder, with `aria-current="page"` on the one link to the current page.
struct TextEmbedder {
    /// Why a file cannot be embedded; the build fails with this message.
    struct Failure: Error, CustomStringConvertible {
        let description: String
    }

    let root: URL
    let files: [URL]

    /// The generated Swift source.
    func source() throws -> String {
        var constants = ""
        var index = ""
        var names: Set<String> = []
        for file in files.sorted(by: { $0.path < $1.path }) where !file.lastPathComponent.hasPrefix("_") {
            let key = try relativePath(file)
            let name = Self.identifier(file.lastPathComponent)
            guard names.insert(name).inserted else { throw Failure(description: "\(key): a second file named \(name)") }
            let text = try expandIncludes(in: try Self.text(of: file), folder: file.deletingLastPathComponent())
            let hashes = String(repeating: "#", count: Self.delimiterLength(for: text))
            constants += "    /// `\(key)`\n    static let \(name) = \(hashes)\"\"\"\n\(text)\n\"\"\"\(hashes)\n\n"
            index += "        \"\(key)\": \(name),\n"
        }
        return """
            // Generated at build time by the EmbedTextFiles plugin from the files named below; edit those, not this.

            /// The target's text files, embedded at build time.
            enum EmbeddedFiles {
            \(constants)    /// Every embedded file by its path under the target's folder.
                static let all: [String: String] = [
            \(index.isEmpty ? "        :\n" : index)    ]
            }

            """
    }

    private func relativePath(_ file: URL) throws -> String {
        let base = root.standardizedFileURL.path + "/"
        let path = file.standardizedFileURL.path
        guard path.hasPrefix(base) else { throw Failure(description: "\(path) is outside \(base)") }
        return String(path.dropFirst(base.count))
    }

    /// Replaces each include line of an HTML file by its partial: `<!-- include _name.html -->` as it is, and
    /// `<!-- include _name.html current="/web/page.html" -->` with `aria-current="page"` on the one link to the page.
    private func expandIncludes(in text: String, folder: URL) throws -> String {
        guard text.contains("<!-- include ") else { return text }
        var lines: [String] = []
        for line in text.split(separator: "\n", omittingEmptySubsequences: false) {
            let words = line.split(separator: " ")
            guard line.hasPrefix("<!-- include _"), line.hasSuffix(" -->"), words.count == 4 || words.count == 5 else {
                lines.append(String(line))
                continue
            }
            var partial = try Self.text(of: folder.appendingPathComponent(String(words[2])))
            if partial.hasSuffix("\n") { partial.removeLast() }
            guard words.count == 5 else {
                lines.append(partial)
                continue
            }
            guard words[3].hasPrefix("current=\""), words[3].hasSuffix("\"") else {
                throw Failure(description: "\(line): the second word must be current=\"/web/page.html\"")
            }
            let link = "href=" + words[3].dropFirst("current=".count)
            let parts = partial.components(separatedBy: link)
            guard parts.count == 2 else {
                throw Failure(description: "\(words[2]) has \(parts.count - 1) links \(link), not exactly one")
            }
            lines.append(parts.joined(separator: link + " aria-current=\"page\""))
        }
        return lines.joined(separator: "\n")
    }

    /// The file's text: UTF-8, with no control characters but newline and tab (a raw string literal keeps the rest).
    static func text(of file: URL) throws -> String {
        guard let text = String(data: try Data(contentsOf: file), encoding: .utf8) else {
            throw Failure(description: "\(file.path) is not UTF-8")
        }
        let controls = text.unicodeScalars.filter { $0.value < 0x20 && $0 != "\n" && $0 != "\t" }
        guard controls.isEmpty else { throw Failure(description: "\(file.path) holds a control character") }
        return text
    }

    /// `shell.js` → `shellJS`, `openapi.json` → `openapiJSON`, `bb.html` → `bbHTML`.
    static func identifier(_ fileName: String) -> String {
        let parts = fileName.split { !$0.isLetter && !$0.isNumber }.map(String.init)
        guard let first = parts.first else { return "_" }
        let head = first.prefix(1).lowercased() + first.dropFirst()
        return head
            + parts.dropFirst().enumerated().map { offset, part in
                offset == parts.count - 2 ? part.uppercased() : part.prefix(1).uppercased() + part.dropFirst()
            }.joined()
    }

    /// The fewest `#` for a raw string literal in which `text` neither ends the literal nor escapes.
    static func delimiterLength(for text: String) -> Int {
        var count = 1
        while text.contains("\"" + String(repeating: "#", count: count))
            || text.contains("\\" + String(repeating: "#", count: count))
        {
            count += 1
        }
        return count
    }
}

let arguments = CommandLine.arguments.dropFirst()
guard arguments.count >= 2, let output = arguments.first else {
    FileHandle.standardError.write(Data("usage: BatonEmbed <output.swift> <root folder> <file>...\n".utf8))
    exit(64)
}
do {
    let embedder = TextEmbedder(
        root: URL(fileURLWithPath: arguments.dropFirst().first ?? "."),
        files: arguments.dropFirst(2).map { URL(fileURLWithPath: $0) })
    let url = URL(fileURLWithPath: output)
    let source = Data(try embedder.source().utf8)
    // Rewritten only when its bytes change. The command also reruns when the tool is relinked, which SwiftPM does on
    // every switch between debug and release (one plugin output folder serves both): rewriting the same text then
    // recompiled BatonServer, though nothing had changed.
    if (try? Data(contentsOf: url)) != source {
        try source.write(to: url, options: .atomic)
    }
} catch {
    FileHandle.standardError.write(Data("BatonEmbed: \(error)\n".utf8))
    exit(1)
}

import Foundation
import PackagePlugin

/// Embeds a target's text files (HTML, CSS, JavaScript, JSON) into its binary at build time: one build command runs
/// `BatonEmbed` over every such file in the target's folder and adds the Swift file it writes (`EmbeddedFiles`) to
/// the target. The command reruns when one of those files (or the tool) changes, and rewrites the Swift file only
/// when its text changes, so that BatonServer is recompiled only then.
@main
struct EmbedTextFiles: BuildToolPlugin {
    static let extensions: Set<String> = ["html", "css", "js", "json"]

    func createBuildCommands(context: PluginContext, target: Target) throws -> [Command] {
        guard let module = target as? SourceModuleTarget else { return [] }
        let inputs = module.sourceFiles.map(\.url).filter { Self.extensions.contains($0.pathExtension) }
        let output = context.pluginWorkDirectoryURL.appending(path: "EmbeddedFiles.swift")
        // Files are keyed by their path under `Sources/<target>/` (the target's folder; `directoryURL` needs 6.1).
        let marker = "/Sources/\(target.name)/"
        guard let first = inputs.first?.path, let range = first.range(of: marker) else { return [] }
        let root = String(first[..<range.upperBound])
        return [
            .buildCommand(
                displayName: "Embedding \(inputs.count) text files into \(target.name)",
                executable: try context.tool(named: "BatonEmbed").url,
                arguments: [output.path, root] + inputs.map(\.path),
                inputFiles: inputs, outputFiles: [output])
        ]
    }
}

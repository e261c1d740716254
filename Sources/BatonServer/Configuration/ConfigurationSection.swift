import BatonCore
import Foundation

/// An object of the configuration file and the path it is at (`server`, `bb.returnURLs`): the reader's functions
/// that take a section name each field by its path themselves, so no read spells a path a second time.
struct ConfigurationSection {
    /// Where the object is in the file, dot-separated.
    let path: String
    /// Its members; empty when the object is absent (or not an object, which the reader has reported).
    let members: [String: JSONValue]

    /// The member `key`, if present.
    subscript(key: String) -> JSONValue? { members[key] }

    /// The path of member `key`: `server.port`.
    func path(of key: String) -> String { path.isEmpty ? key : "\(path).\(key)" }
}

extension ConfigurationReader {
    /// The object `key` of the file's root, with unknown keys reported; an absent optional object reads as empty.
    mutating func section(
        _ root: [String: JSONValue], _ key: String, known: Set<String>, required: Bool = true
    ) -> ConfigurationSection {
        ConfigurationSection(path: key, members: object(root, key, path: key, known: known, required: required))
    }

    /// The object `key` inside `parent`, with unknown keys reported; an absent optional object reads as empty.
    mutating func section(
        _ parent: ConfigurationSection, _ key: String, known: Set<String>, required: Bool = true
    ) -> ConfigurationSection {
        let path = parent.path(of: key)
        return ConfigurationSection(
            path: path, members: object(parent.members, key, path: path, known: known, required: required))
    }

    mutating func string(_ section: ConfigurationSection, _ key: String, default fallback: String? = nil) -> String {
        string(section.members, key, path: section.path(of: key), default: fallback)
    }

    mutating func strings(_ section: ConfigurationSection, _ key: String, required: Bool = true) -> [String] {
        strings(section.members, key, path: section.path(of: key), required: required)
    }

    mutating func integer(
        _ section: ConfigurationSection, _ key: String, default fallback: Int, range: ClosedRange<Int>
    ) -> Int {
        integer(section.members, key, path: section.path(of: key), default: fallback, range: range)
    }

    mutating func integers(_ section: ConfigurationSection, _ key: String, default fallback: [Int]) -> [Int] {
        integers(section.members, key, path: section.path(of: key), default: fallback)
    }

    mutating func bool(_ section: ConfigurationSection, _ key: String, default fallback: Bool) -> Bool {
        bool(section.members, key, path: section.path(of: key), default: fallback)
    }

    mutating func origin(_ section: ConfigurationSection, _ key: String) -> String {
        origin(section.members, key, path: section.path(of: key))
    }

    mutating func hostName(_ section: ConfigurationSection, _ key: String) -> String {
        hostName(section.members, key, path: section.path(of: key))
    }

    mutating func returnURL(_ section: ConfigurationSection, _ key: String, httpsOnly: Bool) -> RegisteredReturnURL? {
        returnURL(section.members, key, path: section.path(of: key), httpsOnly: httpsOnly)
    }

    /// `journeyHosts` of `section` (see ``journeyHosts(_:path:defaultOrigin:documented:)``).
    mutating func journeyHosts(
        _ section: ConfigurationSection, defaultOrigin: String, documented: JourneyHostPins?
    ) -> JourneyHostPins {
        journeyHosts(
            section.members, path: section.path(of: "journeyHosts"), defaultOrigin: defaultOrigin,
            documented: documented)
    }

    /// The previous webhook secret `name` and `previousWebhookSecretUntil` of `section`, both or neither.
    mutating func previousWebhookSecret(
        _ environment: [String: String], _ name: String, _ section: ConfigurationSection
    ) -> (secret: Secret, until: Date)? {
        previousWebhookSecret(
            environment, name, section.members, path: section.path(of: "previousWebhookSecretUntil"))
    }
}

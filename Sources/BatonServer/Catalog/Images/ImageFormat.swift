/// The image formats the backend mirrors, recognised from their leading bytes only (never from a `Content-Type`).
public enum ImageFormat: String, Sendable, Hashable, CaseIterable {
    /// PNG (`89 50 4E 47 0D 0A 1A 0A`).
    case png
    /// JPEG (`FF D8 FF`).
    case jpeg
    /// WebP (`RIFF <size> WEBP`).
    case webp

    /// The format `bytes` begin with, or `nil` when they are none of the three.
    public init?(sniffing bytes: [UInt8]) {
        if bytes.starts(with: [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A]) {
            self = .png
        } else if bytes.count >= 4, bytes.starts(with: [0xFF, 0xD8, 0xFF]) {
            self = .jpeg
        } else if bytes.count >= 16, bytes.starts(with: Array("RIFF".utf8)),
            Array(bytes[8..<12]) == Array("WEBP".utf8)
        {
            self = .webp
        } else {
            return nil
        }
    }

    /// The format whose file extension is `fileExtension` (`png`, `jpg`, `webp`).
    public init?(fileExtension: String) {
        guard let format = Self.allCases.first(where: { $0.fileExtension == fileExtension }) else { return nil }
        self = format
    }

    /// The extension of the neutral `/assets/<sha256>.<ext>` name.
    public var fileExtension: String {
        switch self {
        case .png: "png"
        case .jpeg: "jpg"
        case .webp: "webp"
        }
    }

    /// The media type the asset is served with.
    public var contentType: String {
        switch self {
        case .png: "image/png"
        case .jpeg: "image/jpeg"
        case .webp: "image/webp"
        }
    }
}

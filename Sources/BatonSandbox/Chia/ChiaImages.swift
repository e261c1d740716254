import Foundation

/// The image assets Chia serves behind its API key: real, tiny PNG and JPEG files (8×8, solid colour, written by
/// libpng and libjpeg).
enum ChiaImages {
    /// An image asset: its bytes and media type.
    struct Asset: Sendable {
        let bytes: [UInt8]
        let contentType: String
    }

    /// A green 8×8 PNG.
    static let png = Asset(bytes: decode(pngBase64), contentType: "image/png")

    /// A terracotta 8×8 baseline JPEG (JFIF).
    static let jpeg = Asset(bytes: decode(jpegBase64), contentType: "image/jpeg")

    private static func decode(_ base64: String) -> [UInt8] { Array(Data(base64Encoded: base64)!) }

    private static let pngBase64 =
        "iVBORw0KGgoAAAANSUhEUgAAAAgAAAAICAIAAABLbSncAAAAFElEQVQImWPU6w5nwAaYsIoOWgkA2T8BINOVpmQAAAAASUVORK5CYII="

    private static let jpegBase64 = [
        "/9j/4AAQSkZJRgABAQAAAQABAAD/2wBDAAgGBgcGBQgHBwcJCQgKDBQNDAsLDBkSEw8UHRofHh0aHBwgJC4nICIsIxwcKDcpLDAxNDQ0",
        "Hyc5PTgyPC4zNDL/2wBDAQkJCQwLDBgNDRgyIRwhMjIyMjIyMjIyMjIyMjIyMjIyMjIyMjIyMjIyMjIyMjIyMjIyMjIyMjIyMjIyMjIy",
        "MjL/wAARCAAIAAgDASIAAhEBAxEB/8QAHwAAAQUBAQEBAQEAAAAAAAAAAAECAwQFBgcICQoL/8QAtRAAAgEDAwIEAwUFBAQAAAF9AQID",
        "AAQRBRIhMUEGE1FhByJxFDKBkaEII0KxwRVS0fAkM2JyggkKFhcYGRolJicoKSo0NTY3ODk6Q0RFRkdISUpTVFVWV1hZWmNkZWZnaGlq",
        "c3R1dnd4eXqDhIWGh4iJipKTlJWWl5iZmqKjpKWmp6ipqrKztLW2t7i5usLDxMXGx8jJytLT1NXW19jZ2uHi4+Tl5ufo6erx8vP09fb3",
        "+Pn6/8QAHwEAAwEBAQEBAQEBAQAAAAAAAAECAwQFBgcICQoL/8QAtREAAgECBAQDBAcFBAQAAQJ3AAECAxEEBSExBhJBUQdhcRMiMoEI",
        "FEKRobHBCSMzUvAVYnLRChYkNOEl8RcYGRomJygpKjU2Nzg5OkNERUZHSElKU1RVVldYWVpjZGVmZ2hpanN0dXZ3eHl6goOEhYaHiImK",
        "kpOUlZaXmJmaoqOkpaanqKmqsrO0tba3uLm6wsPExcbHyMnK0tPU1dbX2Nna4uPk5ebn6Onq8vP09fb3+Pn6/9oADAMBAAIRAxEAPwDV",
        "ooorwz68/9k=",
    ].joined()
}

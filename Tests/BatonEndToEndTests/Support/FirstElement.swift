import Foundation

/// The first element of `stream` matching `predicate` (the stream is the coordinator's screens, which every
/// change is yielded to; the suite's time limit bounds the wait).
func first<Element: Sendable>(
    _ stream: AsyncStream<Element>, where predicate: (Element) -> Bool
) async -> Element? {
    for await element in stream where predicate(element) { return element }
    return nil
}

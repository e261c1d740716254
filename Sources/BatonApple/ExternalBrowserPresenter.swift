#if os(iOS) || os(visionOS) || BATON_APPLE_STUBS
import BatonClient
import BatonCore
import UIKit

/// Opens a Chia journey in the OS external browser with `UIApplication.open` (seed 000): no
/// `SFSafariViewController`, no web view, nothing observed afterwards.
public struct ExternalBrowserPresenter: BrowserPresenter {
    /// Creates the presenter.
    public init() {}

    /// Hands `url`, unchanged, to the OS; answers ``BrowserCompletion/handedToSystem`` once the OS has taken it.
    public func present(_ url: SensitiveURL, style: BrowserStyle) async -> BrowserCompletion {
        guard style == .externalBrowser, let target = exactURL(url.revealForPresentation()) else {
            return .failedToOpen
        }
        return await Self.open(target)
    }

    /// One `open` call, ended once by its completion handler (or by the caller's cancellation).
    @MainActor
    private static func open(_ url: URL) async -> BrowserCompletion {
        let slot = PresentationSlot()
        return await slot.present { ticket in
            UIApplication.shared.open(url, options: [:]) { opened in
                slot.finish(ticket, with: opened ? .handedToSystem : .failedToOpen)
            }
        } tearDown: {
        }
    }
}

/// `string` as a `URL` without any rewriting (no percent-encoding added, no normalisation).
func exactURL(_ string: String) -> URL? {
    if #available(iOS 17, *) { return URL(string: string, encodingInvalidCharacters: false) }
    return URL(string: string)
}
#endif

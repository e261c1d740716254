import BatonCore
import BatonHTTP

/// Chia's hosted pages: the co-branded journey a valid `phs_…` opens, the generic Chia page (expired or unknown
/// sessions), and the neutral item pages. None of them reports anything back to the partner.
struct ChiaPages {
    let genericReturnURL: String?

    func coBranded(item: CatalogItem?) -> HTTPResponse {
        let title = item?.title ?? "your selection"
        return HTMLPage.response(
            title: "Chia × Partner", brand: "Chia × Partner",
            body: """
                <h1 data-page="chia-journey">\(HTMLPage.escape(title))</h1>
                <p>Your selection was shared with Chia. Continue here to sign in, complete intake and pay.</p>
                <p><button type="button">Continue</button></p>
                \(returnLink)
                """)
    }

    func generic(status: Int = 200) -> HTTPResponse {
        HTMLPage.response(
            title: "Chia", brand: "Chia",
            body: """
                <h1 data-page="chia-generic">Welcome to Chia</h1>
                <p>Browse treatments and programmes from Chia's clinicians.</p>
                \(returnLink)
                """, status: status)
    }

    func neutral(item: CatalogItem) -> HTTPResponse {
        HTMLPage.response(
            title: "Chia", brand: "Chia",
            body: """
                <h1 data-page="chia-neutral">\(HTMLPage.escape(item.title ?? "Chia"))</h1>
                <p>\(HTMLPage.escape(item.summary ?? ""))</p>
                <p>\(HTMLPage.escape(item.priceText ?? ""))</p>
                \(returnLink)
                """)
    }

    private var returnLink: String {
        guard let genericReturnURL else { return "" }
        return "<p><a href=\"\(HTMLPage.escape(genericReturnURL))\">Back to the app</a></p>"
    }
}

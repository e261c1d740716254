import BatonHTTP

/// The small, self-contained HTML pages of the hosted journeys (no external assets, readable at 320 px).
enum HTMLPage {
    /// `text` with `& < > " '` escaped.
    static func escape(_ text: String) -> String {
        var output = ""
        for character in text {
            switch character {
            case "&": output += "&amp;"
            case "<": output += "&lt;"
            case ">": output += "&gt;"
            case "\"": output += "&quot;"
            case "'": output += "&#39;"
            default: output.append(character)
            }
        }
        return output
    }

    /// A complete page; `body` is trusted HTML (escape every value put into it).
    static func response(
        title: String, brand: String, body: String, status: Int = 200, headers extra: HTTPHeaders = [:]
    ) -> HTTPResponse {
        let html = """
            <!doctype html>
            <html lang="en"><head><meta charset="utf-8">
            <meta name="viewport" content="width=device-width, initial-scale=1">
            <title>\(escape(title))</title>
            <style>body{font-family:system-ui,sans-serif;max-width:36rem;margin:0 auto;padding:1rem;line-height:1.5}
            header{font-weight:600;color:#555}button,input,select{font:inherit;padding:.5rem;margin:.25rem 0}
            form{margin:1rem 0}.sandbox{font-size:.8rem;color:#777}</style></head>
            <body><header>\(escape(brand)) <span class="sandbox">(sandbox)</span></header>
            <main>
            \(body)
            </main></body></html>
            """
        var headers: HTTPHeaders = [
            "content-type": "text/html; charset=utf-8", "cache-control": "no-store", "referrer-policy": "no-referrer",
        ]
        for field in extra { headers.add(field.name, field.value) }
        return HTTPResponse(status: status, headers: headers, body: Array(html.utf8))
    }

    /// A 303 See Other to `location`.
    static func seeOther(_ location: String, headers extra: HTTPHeaders = [:]) -> HTTPResponse {
        var headers: HTTPHeaders = [
            "location": location, "cache-control": "no-store", "referrer-policy": "no-referrer",
        ]
        for field in extra { headers.add(field.name, field.value) }
        return HTTPResponse(status: 303, headers: headers)
    }
}

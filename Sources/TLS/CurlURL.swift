import CCurl

/// A URL's parts as libcurl's own URL parser (curl_url) reads them, so eid judges an address as libcurl will
/// use it. Parts absent from the URL are nil (no default port, no guessed scheme).
struct CurlURL {
    let scheme: String?
    let host: String?
    let port: String?
    /// The credentials as written in the URL (percent-encoded, as libcurl keeps them).
    let user: String?
    let password: String?

    /// nil when libcurl cannot parse `url`.
    init?(_ url: String) {
        guard let parsed = curl_url() else { return nil }
        defer { curl_url_cleanup(parsed) }
        guard curl_url_set(parsed, CURLUPART_URL, url, 0) == CURLUE_OK else { return nil }
        func part(_ which: CURLUPart) -> String? {
            var value: UnsafeMutablePointer<CChar>? = nil
            guard curl_url_get(parsed, which, &value, 0) == CURLUE_OK, let value else { return nil }
            defer { curl_free(value) }
            return String(cString: value)
        }
        scheme = part(CURLUPART_SCHEME)?.lowercased()
        host = part(CURLUPART_HOST)
        port = part(CURLUPART_PORT)
        user = part(CURLUPART_USER)
        password = part(CURLUPART_PASSWORD)
    }
}

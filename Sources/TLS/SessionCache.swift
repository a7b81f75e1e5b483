import CCurl

/// A libcurl share holding TLS sessions, so a new connection of one handle can resume a session another
/// handle negotiated (TLS-2 resuming TLS-1-2). One HTTPSession, one thread: no lock functions needed.
enum SessionCache {
    static func make() -> UnsafeMutableRawPointer? {
        guard let share = curl_share_init() else { return nil }
        guard eid_curl_share_data(share, CURL_LOCK_DATA_SSL_SESSION) == CURLSHE_OK else {
            curl_share_cleanup(share)
            return nil
        }
        return share
    }

    static func free(_ share: UnsafeMutableRawPointer?) {
        if let share { curl_share_cleanup(share) }
    }
}

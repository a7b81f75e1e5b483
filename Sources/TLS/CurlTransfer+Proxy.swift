import CCurl

// A `CurlTransfer`'s proxy (`HTTPConfiguration.proxy`): set on the handle, and its part in a failed transfer.
extension CurlTransfer {
    /// CURLOPT_PROXY and CURLOPT_NOPROXY from `proxy`; without one both are "", so libcurl never reads the
    /// proxy variables itself (eid decides once, in `HTTPProxy`, and can name the proxy in its errors).
    static func setProxy(_ proxy: HTTPProxy?, on handle: UnsafeMutableRawPointer) -> CURLcode {
        let code = eid_curl_setopt_string(handle, CURLOPT_PROXY, proxy?.url ?? "")
        guard code == CURLE_OK else { return code }
        return eid_curl_setopt_string(handle, CURLOPT_NOPROXY, proxy?.noProxy ?? "")
    }

    /// libcurl's message for a failed transfer (its error buffer, else the code's text), with the proxy's
    /// credentials scrubbed should they appear.
    func libcurlMessage(_ code: CURLcode) -> String {
        let message = errorBuffer[0] != 0 ? String(cString: errorBuffer) : String(cString: curl_easy_strerror(code))
        return state.configuration.proxy?.scrubbed(message) ?? message
    }

    /// The error when the proxy is why the transfer failed: it answered the CONNECT with a status other than
    /// 2xx, its name was not found, or no connection was made with it set; nil otherwise, or without a proxy.
    func proxyError(for code: CURLcode, message: String) -> HTTPError? {
        guard let proxy = state.configuration.proxy else { return nil }
        var status = 0
        if eid_curl_getinfo_long(handle, CURLINFO_HTTP_CONNECTCODE, &status) == CURLE_OK, status != 0,
            !(200..<300).contains(status)
        {
            return .proxyRefused(proxy: proxy.address, host: state.host, status: status)
        }
        switch code {
        case CURLE_COULDNT_RESOLVE_PROXY: return .proxyNotFound(proxy: proxy.address)
        case CURLE_COULDNT_CONNECT: return .proxyConnectionFailed(proxy: proxy.address, detail: message)
        default: return nil
        }
    }
}

import CCurl
import SmartCard

/// The certificate store for the web-PKI check (`chainTrusted`), made once per process for each
/// extra trust-anchor file: the system's roots (OpenSSL's default paths) plus the file's. Every
/// connection's SSL_CTX shares it (SSL_CTX_set1_cert_store takes a reference), instead of libcurl
/// and OpenSSL each parsing the ~140 certificates of the system bundle into every new SSL_CTX:
/// that cost eid auth four loads (two handles, two loads each), about 0.8 MiB of peak RSS and
/// 10-40 ms of CPU each (`make bench`, README "Performance"). X509_STORE lookups take the store's
/// own lock, so connections on several threads may share it.
enum VerificationRoots {
    /// The stores made so far, by trust-anchor file ("" for none); never freed (one or two per process).
    private static let stores = Locked<[String: StoreHandle]>([:])

    /// An X509_STORE pointer; only handed to OpenSSL, which locks the store itself.
    private struct StoreHandle: @unchecked Sendable {
        // @unchecked: OpenSSL's X509_STORE guards its contents with its own lock; the pointer is
        // written once, under `stores`' lock, and never freed.
        let pointer: OpaquePointer
    }

    /// The shared store for `anchorsFile` (nil: the system's roots only); nil when OpenSSL cannot
    /// make one (then the connection has no roots and `chainTrusted` is false).
    static func store(anchorsFile: String?) -> OpaquePointer? {
        stores.withLock { stores in
            let key = anchorsFile ?? ""
            if let made = stores[key] { return made.pointer }
            guard let store = X509_STORE_new() else { return nil }
            _ = X509_STORE_set_default_paths(store)
            if let anchorsFile { _ = X509_STORE_load_file(store, anchorsFile) }
            ERR_clear_error()
            stores[key] = StoreHandle(pointer: store)
            return store
        }
    }
}

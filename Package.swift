// swift-tools-version:6.0
import PackageDescription

// Layers, bottom up (see README.md, "Code map"):
//   CPCSC                libpcsclite
//   COpenSSL             OpenSSL 3 libcrypto, loaded on first use (dlopen): its functions under their own names
//   CLibXML2             libxml2, loaded on first use (dlopen): its functions under their own names
//   OrderedJSON          JSON values with member order kept: strict bounded parser, compact encoder
//   SmartCard            APDUs, status words, BER-TLV, the CardChannel and CardReaderProvider protocols
//   PCSC                 the PC/SC reader manager (a CardChannel per connected card) and its reader provider
//   EIDCrypto            a small Swift facade over OpenSSL libcrypto
//   EAC                  SecurityInfos, PACE, secure messaging, CV certificates, the built-in CVCAs (DER files)
//   TestPKI              the project's test CVCA (TEST ONLY) and DV/terminal certificates issued from it
//   CLibSSL              libssl, loaded on first use (dlopen): its functions under their own names
//   CCurl, TLS           libcurl (OpenSSL backend), loaded on first use (dlopen), with CLibSSL; HTTP over
//                        TLS-1/TLS-2 for the eID client
//   CardSimulator        the software eID card (eid-sim, and the in-process "Simulator" reader provider)
//   Online               TcToken, the PAOS messages, eCard-API result codes (XML through libxml2: CLibXML2),
//                        PAOSTransport and RefreshAddressClient (the network as the workflows see it)
//   SDK                  the AusweisApp2 SDK messages and commands (JSON)
//   Workflows            reader listing, the PACE sub-machine, change PIN and authentication (from the
//                        TcToken fetch, an injected TcTokenFetcher, to the refresh address) as state
//                        machines speaking SDK messages; imports neither PCSC nor CardSimulator (the
//                        executables wire the providers) nor any transport
//   OnlineClient         the TcToken fetch and PAOSTransport over HTTP/TLS (TLS-1, TLS-2); no workflow
//   IFDTransport         the secure pipe to a phone as card reader: TLS 1.2 (CLibSSL through memory BIOs, pairing
//                        with RSA-PSK, paired with the phone's certificate pinned), the WebSocket client
//                        (NIOWebSocket), eid's own RSA key and certificate; blocking, every wait bounded
//   LocalService         eid serve's port, transport only: HTTP/1.1 (NIOHTTP1) and the SDK WebSocket (NIOWebSocket),
//                        request routing, the Host check, error pages, socket activation; asks a delegate
//   Faces                the terminal and JSON faces over an injected context (console, input,
//                        terminal, clock, signals, reader providers), one face session per run (Terminal/,
//                        JSON/, Process/, Commands/); imports neither PCSC nor CardSimulator; Service/: the
//                        service sessions (LocalService's delegate: SDK clients, browser activations)
//   EIDTestServer        the test eID server's sessions without transport: the PAOS exchange as a state
//                        machine, its PKI, fault injection, the session result; no card, no HTTP/TLS
//   SimulatedPhone       eid-sim --ifd: a phone running AusweisApp as card reader (TR-03112-6 IFD server:
//                        discovery, pairing, TLS over TestServerHTTPS's OpenSSL, WebSocket), the software card in it;
//                        written from the protocol, independent of eid's client side (RemoteIFD)
//   eid, eid-sim         thin executables: arguments, wiring a context, exit codes
//   MemoryBIOTLS         OpenSSL's TLS through memory BIOs under a SwiftNIO handler (both TLS handlers below use it)
//   TestServerHTTPS      eid-testserver's HTTPS front end: NIOHTTP1 + OpenSSL (CTestServerTLS) through memory BIOs
//   EIDTestServerHTTPS   EIDServerSessionHandler: EIDTestServer's sessions behind TestServerHTTPS's PAOS endpoint
//   eid-testserver       the local eService and eID server for tests (serve, pki)
//   FuzzTargets          the fuzz targets' entry functions (`make fuzz`; FuzzCorpusTests replays the corpora)

// The release executables, linked with lld: relative relocations packed (DT_RELR, glibc 2.36: 1.3 MiB of
// .rela.dyn no longer read at every start) and no symbol of eid's own exported (SwiftPM's static Swift runtime
// links with --export-dynamic: 16,000 symbols the loader would map and hash). The code the commands run and
// the protocol conformance descriptors come first, in packaging/symbol-order.txt's order (`make symbol-order`
// writes it): the kernel maps file pages 64 KiB at a time, so scattered they cost 2-3 MiB more RSS. A symbol
// the list names but the binary lacks is skipped. libstdc++ and the unwinder are linked statically (the linker
// scripts in packaging/static-link stand in for the shared ones): no process maps libstdc++.so.6. README, "Memory".
let releaseLinking: [LinkerSetting] = [
    .unsafeFlags(
        [
            "-use-ld=lld", "-Xlinker", "--no-export-dynamic", "-Xlinker", "-z", "-Xlinker", "pack-relative-relocs",
            "-Xlinker", "--symbol-ordering-file=\(Context.packageDirectory)/packaging/symbol-order.txt",
            "-Xlinker", "--no-warn-symbol-ordering", "-L\(Context.packageDirectory)/packaging/static-link",
        ],
        .when(configuration: .release))
]

let package = Package(
    name: "eid",
    platforms: [.macOS(.v13)],
    products: [
        .executable(name: "eid", targets: ["eid"]),
        .executable(name: "eid-sim", targets: ["eid-sim"]),
        .executable(name: "eid-testserver", targets: ["eid-testserver"]),
    ],
    dependencies: [
        .package(url: "https://github.com/apple/swift-argument-parser", from: "1.5.0"),
        // HTTP/1.1 parsing and the event loop of eid-testserver's front end (NIOHTTP1); TLS is not
        // swift-nio-ssl (BoringSSL has no RSA-PSK) but system OpenSSL through memory BIOs.
        .package(url: "https://github.com/apple/swift-nio", from: "2.101.0"),
    ],
    targets: [
        .systemLibrary(name: "CPCSC", pkgConfig: "libpcsclite", providers: [.apt(["libpcsclite-dev"])]),
        // libcrypto, libxml2 and libcurl (with the libssl it brings) are loaded on first use (dlopen), not linked:
        // a command that computes nothing never maps libcrypto, one that never goes online never maps the others
        // (README, "Memory"). Their headers: libssl-dev, libxml2-dev, libcurl4-openssl-dev. CCurl's own libcrypto
        // calls (and TLS's) bind to COpenSSL's forwarding functions, so one libcrypto serves both.
        .target(name: "COpenSSL"),
        .target(name: "CLibXML2"),
        // libssl, loaded on first use (dlopen) for both of its users: CCurl (libcurl's TLS) and IFDTransport; its
        // libcrypto calls are COpenSSL's forwarding functions.
        .target(name: "CLibSSL", dependencies: ["COpenSSL"]),
        .target(name: "CCurl", dependencies: ["CLibSSL", "COpenSSL"]),
        // libssl for eid-testserver's TLS server (RSA-PSK, session cache and tickets), driven through memory BIOs.
        .systemLibrary(name: "CTestServerTLS", pkgConfig: "openssl", providers: [.apt(["libssl-dev"])]),
        // OpenPACE, an independent PACE and secure messaging implementation: only PeerTests use it.
        .systemLibrary(name: "COpenPACE", pkgConfig: "libeac", providers: [.apt(["libeac-dev"])]),
        // libxml2's XML Schema validation: only ECardAPISchema (tests) uses it; eid's XML stays in CLibXML2.
        .systemLibrary(
            name: "CXMLSchema", path: "Tests/CXMLSchema", pkgConfig: "libxml-2.0", providers: [.apt(["libxml2-dev"])]),
        // No dependencies and no Foundation: SDK (messages, commands) and CardSimulator (profiles)
        // share it without either depending on the other or on a card layer.
        .target(name: "OrderedJSON"),
        .target(name: "SmartCard"),
        .target(name: "PCSC", dependencies: ["CPCSC", "SmartCard"]),
        .target(name: "EIDCrypto", dependencies: ["COpenSSL"]),
        // The built-in CVCA certificates are DER files embedded at build time (no Foundation, no bundle):
        // GermanEIDPKI/CVCA/README.md.
        .target(
            name: "EAC", dependencies: ["SmartCard", "EIDCrypto"], exclude: ["GermanEIDPKI/CVCA/README.md"],
            resources: [
                .embedInCode("GermanEIDPKI/CVCA/DECVCAeID00107.der"),
                .embedInCode("GermanEIDPKI/CVCA/DECVCAeID00106.der"),
                .embedInCode("GermanEIDPKI/CVCA/DECVCAeID00105.der"),
                .embedInCode("GermanEIDPKI/CVCA/DECVCAeID00104.der"),
                .embedInCode("GermanEIDPKI/CVCA/DECVCAeID00103.der"),
                .embedInCode("GermanEIDPKI/CVCA/DECVCAeID00102.der"),
                .embedInCode("GermanEIDPKI/CVCA/DETESTeID00008.der"),
                .embedInCode("GermanEIDPKI/CVCA/DETESTeID00007.der"),
                .embedInCode("GermanEIDPKI/CVCA/DETESTeID00006.der"),
                .embedInCode("GermanEIDPKI/CVCA/DETESTeID00005.der"),
                .embedInCode("GermanEIDPKI/CVCA/DETESTeID00004.der"),
                .embedInCode("GermanEIDPKI/CVCA/DETESTeID00002.der"),
                .embedInCode("GermanEIDPKI/CVCA/DETESTeID00001.der"),
                .embedInCode("GermanEIDPKI/CVCA/DECVCAeIDCTL0405.der"),
                .embedInCode("GermanEIDPKI/CVCA/DECVCAeIDCTL0404.der"),
                .embedInCode("GermanEIDPKI/CVCA/DECVCAeIDCTL0403.der"),
                .embedInCode("GermanEIDPKI/CVCA/DECVCAeIDCTL0402.der"),
                .embedInCode("GermanEIDPKI/CVCA/DECVCAeIDCTL0401.der"),
                .embedInCode("GermanEIDPKI/CVCA/DECVCAeIDCT00001.der"),
            ]
        ),
        // The project's test PKI (TEST ONLY): the committed test CVCA and fresh DV/terminal
        // certificates; eid-sim's default trust anchor, the tests' and the test server's issuer.
        .target(name: "TestPKI", dependencies: ["EAC", "EIDCrypto", "SmartCard"]),
        // HTTP over TLS for the eID client (TLS-1, TLS-2 with PSK or resumption) on libcurl + OpenSSL 3.
        .target(name: "TLS", dependencies: ["CCurl", "SmartCard"]),
        .target(
            name: "CardSimulator", dependencies: ["SmartCard", "EIDCrypto", "EAC", "OrderedJSON", "TestPKI"]
        ),
        // TcToken, PAOS messages, the eCard-API result codes; XML only through libxml2 (CLibXML2).
        .target(name: "Online", dependencies: ["CLibXML2", "SmartCard"]),
        .target(name: "SDK", dependencies: ["SmartCard", "OrderedJSON"]),
        .target(
            name: "Workflows",
            dependencies: ["SmartCard", "EIDCrypto", "EAC", "SDK", "Online"]
        ),
        // The authentication's network side: the TcToken fetch (TLS-1) and PAOSTransport over TLS-2.
        // Implements Online's PAOSTransport and RefreshAddressClient, so neither it nor Workflows imports the
        // other; Workflows stays without network (its tests play the server in process).
        .target(name: "OnlineClient", dependencies: ["TLS", "Online", "SmartCard"]),
        // OpenSSL's TLS through memory BIOs under a SwiftNIO handler: the byte moving both TLS handlers share
        // (TestServerHTTPS's server, IFDTransport's client).
        .target(
            name: "MemoryBIOTLS", dependencies: ["CLibSSL", .product(name: "NIOCore", package: "swift-nio")]
        ),
        // The secure pipe to a phone as card reader (TR-03112-6 IFD): TLS 1.2 over libssl (CLibSSL, memory BIOs),
        // the WebSocket client of NIOWebSocket, eid's own RSA identity; no IFD message (RemoteIFD).
        .target(
            name: "IFDTransport",
            dependencies: [
                "CLibSSL", "MemoryBIOTLS", "EIDCrypto", "SmartCard",
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "NIOPosix", package: "swift-nio"),
                .product(name: "NIOHTTP1", package: "swift-nio"),
                .product(name: "NIOWebSocket", package: "swift-nio"),
            ]
        ),
        // eid serve's transport: HTTP and the SDK WebSocket on SwiftNIO; no workflow, no SDK message.
        .target(
            name: "LocalService",
            dependencies: [
                "SmartCard",
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "NIOPosix", package: "swift-nio"),
                .product(name: "NIOHTTP1", package: "swift-nio"),
                .product(name: "NIOWebSocket", package: "swift-nio"),
            ]
        ),
        // The phone as card reader (TR-03112-6 IFD over wss), client side above the transport: the IFD
        // messages, discovery, the paired phones' store, a CardReaderProvider; TLS and WebSocket come in
        // through IFDMessageChannel.
        .target(name: "RemoteIFD", dependencies: ["SmartCard", "OrderedJSON", "Online", "EIDCrypto", "IFDTransport"]),
        .target(
            name: "Faces",
            dependencies: [
                "SmartCard", "SDK", "Workflows", "Online", "EAC", "LocalService", "OrderedJSON", "RemoteIFD",
            ]
        ),
        .target(
            name: "EIDTestServer", dependencies: ["Online", "EAC", "EIDCrypto", "SmartCard", "TestPKI", "OrderedJSON"]
        ),
        .executableTarget(
            name: "eid",
            dependencies: [
                "Faces", "Workflows", "PCSC", "CardSimulator", "SmartCard", "OnlineClient", "TLS", "Online", "EAC",
                "EIDCrypto", "TestPKI", "LocalService", "RemoteIFD",
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
            ],
            linkerSettings: releaseLinking
        ),
        // Figures for `make bench` (PACE in process; TA, CA and data groups through pcscd; parallel
        // in-process eID clients against eid-testserver); not installed.
        .executableTarget(
            name: "eid-bench",
            dependencies: [
                "CardSimulator", "EAC", "EIDCrypto", "PCSC", "SmartCard", "TestPKI", "Workflows", "OnlineClient", "TLS",
                "SDK",
            ]
        ),
        // Re-creates the committed test CVCA (`make test-pki`) and issues test certificates; not installed.
        .executableTarget(
            name: "eid-test-pki",
            dependencies: [
                "TestPKI", "EAC", "SmartCard", .product(name: "ArgumentParser", package: "swift-argument-parser"),
            ]
        ),
        // eid-testserver's HTTPS front end: OpenSSL TLS server over SwiftNIO's HTTP/1.1, TcToken,
        // the PAOS endpoint (a PAOSSessionHandler answers), refresh and result pages, transport faults.
        .target(
            name: "TestServerHTTPS",
            dependencies: [
                "CTestServerTLS", "MemoryBIOTLS", "Online", "OrderedJSON", "SmartCard", "EIDCrypto",
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "NIOPosix", package: "swift-nio"),
                .product(name: "NIOHTTP1", package: "swift-nio"),
            ]
        ),
        // The session library behind the front end's PAOS endpoint (neither half depends on the other).
        .target(name: "EIDTestServerHTTPS", dependencies: ["EIDTestServer", "TestServerHTTPS", "SmartCard"]),
        .executableTarget(
            name: "eid-testserver",
            dependencies: [
                "EIDTestServerHTTPS", "EIDTestServer", "TestServerHTTPS", "TestPKI", "EAC", "EIDCrypto", "SmartCard",
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
            ],
            linkerSettings: releaseLinking
        ),
        // One entry function per fuzz target over data from outside (see FuzzTarget); the libFuzzer
        // executables (`make fuzz` only, below) and FuzzCorpusTests call them.
        .target(
            name: "FuzzTargets",
            dependencies: [
                "Online", "EAC", "EIDCrypto", "SmartCard", "Workflows", "CardSimulator", "EIDTestServer", "OrderedJSON",
                "TestPKI",
            ]
        ),
        // eid-sim --ifd: the phone as card reader (server side), written from the protocol and AusweisApp's
        // behaviour, never from eid's client (RemoteIFD), so that the two sides test each other.
        .target(
            name: "SimulatedPhone",
            dependencies: [
                "CardSimulator", "SmartCard", "EAC", "EIDCrypto", "OrderedJSON", "TestServerHTTPS",
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "NIOPosix", package: "swift-nio"),
                .product(name: "NIOHTTP1", package: "swift-nio"),
                .product(name: "NIOWebSocket", package: "swift-nio"),
            ]
        ),
        .executableTarget(
            name: "eid-sim",
            dependencies: [
                "CardSimulator", "SmartCard", "SimulatedPhone", "EAC",
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
            ],
            linkerSettings: releaseLinking
        ),

        .testTarget(name: "OrderedJSONTests", dependencies: ["OrderedJSON"]),
        // Whether pages are locked into RAM (/proc/self/smaps), for the tests of the secrets' memory.
        .target(name: "LockedPages", path: "Tests/LockedPages"),
        .testTarget(name: "SmartCardTests", dependencies: ["SmartCard", "LockedPages"]),
        // Programs tests write and run: written so that no forked child holds them open (ETXTBSY), and one
        // that lists the descriptors it inherited.
        .target(name: "TestPrograms", path: "Tests/TestPrograms"),
        .testTarget(name: "PCSCTests", dependencies: ["PCSC"]),
        // The published test vectors and their loader, shared by the crypto and EAC tests.
        .target(
            name: "TestVectors", dependencies: ["SmartCard"], path: "Tests/TestVectors",
            resources: [.copy("Fixtures")]
        ),
        .testTarget(
            name: "EIDCryptoTests", dependencies: ["EIDCrypto", "SmartCard", "TestVectors"]
        ),
        .testTarget(
            name: "EACTests", dependencies: ["EAC", "EIDCrypto", "SmartCard", "TestVectors", "TestPKI"]
        ),
        .testTarget(name: "TestPKITests", dependencies: ["TestPKI", "EAC", "EIDCrypto"]),
        .testTarget(
            name: "CardSimulatorTests", dependencies: ["CardSimulator", "EAC", "SmartCard", "TestPKI"]
        ),
        .testTarget(name: "SDKTests", dependencies: ["SDK"]),
        // The eCard-API framework's XML schemas (TR-03112, from Open eCard) and the SOAP 1.1 envelope's,
        // compiled by libxml2: an independent reader for every PAOS message eid sends (Schemas/README.md).
        // A test target without tests of its own (as OpenPACEPeer), used by OnlineTests and EndToEndTests.
        // Its Schemas/ are read from the source tree, not bundled: a bundle's accessor imports Foundation,
        // whose ICU headers clash with libxml2's in one module.
        .testTarget(
            name: "ECardAPISchema", dependencies: ["CXMLSchema", "SmartCard"], path: "Tests/ECardAPISchema",
            exclude: ["Schemas"]
        ),
        .testTarget(
            name: "OnlineTests", dependencies: ["Online", "SmartCard", "LockedPages", "ECardAPISchema"],
            resources: [.copy("Fixtures")]
        ),
        // Against independent peers: openssl s_server and a Python https server, on loopback; and
        // OnlineClient (TcToken fetch, PAOS over TLS-2) against the same Python server.
        .testTarget(name: "TLSTests", dependencies: ["TLS", "OnlineClient", "Workflows", "LockedPages"]),
        .testTarget(
            name: "WorkflowsTests",
            dependencies: [
                "Workflows", "Faces", "SDK", "CardSimulator", "SmartCard", "EAC", "EIDCrypto", "Online", "TestPKI",
                "ECardAPISchema",
            ]
        ),
        .testTarget(
            name: "FacesTests",
            dependencies: [
                "Faces", "Workflows", "SDK", "CardSimulator", "SmartCard", "EIDTestServer", "Online", "EAC", "TestPKI",
                "LockedPages", "LocalService", "RemoteIFD", "TestPrograms",
            ]
        ),
        // A whole session against the in-process software card, with a small test-local eID client.
        .testTarget(
            name: "EIDTestServerTests",
            dependencies: [
                "EIDTestServer", "Online", "EAC", "EIDCrypto", "SmartCard", "TestPKI", "CardSimulator", "OrderedJSON",
                "EIDTestServerHTTPS", "TestServerHTTPS", "TLS",
            ]
        ),
        // OpenPACE's terminal (PACE, secure messaging, TA, CA) over any CardChannel, and its small
        // TLV codec: the independent peer of PeerTests (in process) and EndToEndTests (through pcscd).
        // A test target (without tests of its own), so that only test builds compile it and need libeac.
        .testTarget(name: "OpenPACEPeer", dependencies: ["COpenPACE", "SmartCard"], path: "Tests/OpenPACEPeer"),
        // The built executables through the test pcscd; and terminals through it (PCSC): eid's
        // library terminal and OpenPACE's, with certificates from the test PKI.
        .testTarget(
            name: "EndToEndTests",
            dependencies: [
                "PCSC", "EAC", "EIDCrypto", "SmartCard", "TestPKI", "CardSimulator", "OpenPACEPeer", "ECardAPISchema",
                "RemoteIFD", "TestPrograms",
            ]
        ),
        .testTarget(
            name: "FuzzTargetsTests",
            dependencies: [
                "FuzzTargets", "EAC", "EIDCrypto", "SmartCard", "TestPKI", "Online", "CardSimulator", "EIDTestServer",
            ]
        ),
        // The phone's messages with a JSON client written in the test, its PIN-pad PACE (and TA, CA and the
        // server's secure messaging through it), and the real server over TLS and WebSocket (openssl s_client
        // for the PSK pairing, a Python client for the rest).
        .testTarget(
            name: "SimulatedPhoneTests",
            dependencies: [
                "SimulatedPhone", "CardSimulator", "EAC", "EIDCrypto", "SmartCard", "OrderedJSON", "TestServerHTTPS",
                "TestPKI",
            ]
        ),
        .testTarget(name: "TestServerHTTPSTests", dependencies: ["TestServerHTTPS", "Online", "SmartCard"]),
        .testTarget(name: "LocalServiceTests", dependencies: ["LocalService"]),
        .testTarget(name: "RemoteIFDTests", dependencies: ["RemoteIFD", "SmartCard", "OrderedJSON", "Online", "EAC"]),
        // Against a phone's side made of TestServerHTTPS's OpenSSL server handler and NIO's WebSocket server, and
        // against openssl s_server (RSA-PSK as PersoSim takes it, a client certificate required).
        .testTarget(
            name: "IFDTransportTests",
            dependencies: [
                "IFDTransport", "TestServerHTTPS", "CTestServerTLS", "EIDCrypto", "SmartCard",
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "NIOPosix", package: "swift-nio"),
                .product(name: "NIOHTTP1", package: "swift-nio"),
                .product(name: "NIOWebSocket", package: "swift-nio"),
            ]
        ),
        // eid's terminal against OpenPACE's card, and OpenPACE's terminal against eid's software card.
        .testTarget(
            name: "PeerTests",
            dependencies: ["EAC", "EIDCrypto", "SmartCard", "CardSimulator", "COpenPACE", "OpenPACEPeer", "TestPKI"]
        ),
    ]
)

// The libFuzzer executables fuzz-<target> (Tests/Fuzz/Drivers), only when EID_FUZZ=1: `make fuzz`
// builds them alone (--product) with -sanitize=fuzzer,address in .build-fuzz; an ordinary build
// neither needs nor links them.
if Context.environment["EID_FUZZ"] == "1" {
    package.targets.append(.target(name: "LibFuzzerDriver", path: "Tests/Fuzz/Drivers/LibFuzzerDriver"))
    for name in [
        "paos", "tc-token", "terminal-check", "security-infos", "card-simulator", "server-session", "ordered-json",
        "tlv",
    ] {
        package.targets.append(
            .executableTarget(
                name: "fuzz-\(name)", dependencies: ["FuzzTargets", "LibFuzzerDriver"],
                path: "Tests/Fuzz/Drivers/fuzz-\(name)"))
        package.products.append(.executable(name: "fuzz-\(name)", targets: ["fuzz-\(name)"]))
    }
}

// swift-tools-version:6.0
import PackageDescription

// Layers, bottom up (see README.md, "Code map"):
//   CPCSC, COpenSSL      C shims over libpcsclite and OpenSSL 3
//   OrderedJSON          JSON values with member order kept: strict bounded parser, compact encoder
//   SmartCard            APDUs, status words, BER-TLV, the CardChannel and CardReaderProvider protocols
//   PCSC                 the PC/SC reader manager (a CardChannel per connected card) and its reader provider
//   EIDCrypto            a small Swift facade over OpenSSL libcrypto
//   EAC                  SecurityInfos, PACE, secure messaging
//   CCurl, TLS           libcurl (OpenSSL backend); HTTP over TLS-1/TLS-2 for the eID client
//   CardSimulator        the software eID card (eid-sim, and the in-process "Simulator" reader provider)
//   SDK                  the AusweisApp2 SDK messages and commands (JSON)
//   Workflows            reader listing and change PIN as state machines speaking SDK messages;
//                        imports neither PCSC nor CardSimulator (the executables wire the providers)
//   eid, eid-sim         thin executables: arguments, terminal, exit codes

let package = Package(
    name: "eid",
    platforms: [.macOS(.v13)],
    products: [
        .executable(name: "eid", targets: ["eid"]),
        .executable(name: "eid-sim", targets: ["eid-sim"]),
    ],
    dependencies: [
        .package(url: "https://github.com/apple/swift-argument-parser", from: "1.5.0")
    ],
    targets: [
        .systemLibrary(name: "CPCSC", pkgConfig: "libpcsclite", providers: [.apt(["libpcsclite-dev"])]),
        .systemLibrary(name: "COpenSSL", pkgConfig: "openssl", providers: [.apt(["libssl-dev"])]),
        .systemLibrary(name: "CCurl", pkgConfig: "libcurl", providers: [.apt(["libcurl4-openssl-dev"])]),
        // OpenPACE, an independent PACE and secure messaging implementation: only PeerTests use it.
        .systemLibrary(name: "COpenPACE", pkgConfig: "libeac", providers: [.apt(["libeac-dev"])]),
        // No dependencies and no Foundation: SDK (messages, commands) and CardSimulator (profiles)
        // share it without either depending on the other or on a card layer.
        .target(name: "OrderedJSON"),
        .target(name: "SmartCard"),
        .target(name: "PCSC", dependencies: ["CPCSC", "SmartCard"]),
        .target(name: "EIDCrypto", dependencies: ["COpenSSL"]),
        .target(name: "EAC", dependencies: ["SmartCard", "EIDCrypto"]),
        // HTTP over TLS for the eID client (TLS-1, TLS-2 with PSK or resumption) on libcurl + OpenSSL 3.
        .target(name: "TLS", dependencies: ["CCurl"]),
        .target(
            name: "CardSimulator", dependencies: ["SmartCard", "EIDCrypto", "EAC", "OrderedJSON"]
        ),
        .target(name: "SDK", dependencies: ["SmartCard", "OrderedJSON"]),
        .target(
            name: "Workflows",
            dependencies: ["SmartCard", "EAC", "SDK"]
        ),
        // Swift 5 mode until its signal handling moves into the Faces context (issue 7, item 2).
        .executableTarget(
            name: "eid",
            dependencies: [
                "Workflows", "SDK", "PCSC", "CardSimulator", "SmartCard",
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
            ],
            swiftSettings: [.swiftLanguageMode(.v5)]
        ),
        // In-process figures for `make bench`; not installed.
        .executableTarget(
            name: "eid-bench", dependencies: ["CardSimulator", "EAC", "SmartCard"]
        ),
        .executableTarget(
            name: "eid-sim",
            dependencies: [
                "CardSimulator", "SmartCard",
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
            ]
        ),

        .testTarget(name: "OrderedJSONTests", dependencies: ["OrderedJSON"]),
        .testTarget(name: "SmartCardTests", dependencies: ["SmartCard"]),
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
            name: "EACTests", dependencies: ["EAC", "EIDCrypto", "SmartCard", "TestVectors"]
        ),
        .testTarget(
            name: "CardSimulatorTests", dependencies: ["CardSimulator", "EAC", "SmartCard"]
        ),
        .testTarget(name: "SDKTests", dependencies: ["SDK"]),
        // Against independent peers: openssl s_server and a Python https server, on loopback.
        .testTarget(name: "TLSTests", dependencies: ["TLS"]),
        .testTarget(
            name: "WorkflowsTests", dependencies: ["Workflows", "SDK", "CardSimulator", "SmartCard"]
        ),
        .testTarget(name: "EndToEndTests"),
        // eid's terminal against OpenPACE's card, and OpenPACE's terminal against eid's software card.
        .testTarget(
            name: "PeerTests", dependencies: ["EAC", "EIDCrypto", "SmartCard", "CardSimulator", "COpenPACE"]
        ),
    ]
)

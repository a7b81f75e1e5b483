// swift-tools-version:6.0
import PackageDescription

// Layers, bottom up (see README.md, "Code map"):
//   CPCSC, COpenSSL      C shims over libpcsclite and OpenSSL 3
//   OrderedJSON          JSON values with member order kept: strict bounded parser, compact encoder
//   CardAccess           APDUs, status words, BER-TLV, the CardChannel and CardReaderProvider protocols
//   PCSC                 the PC/SC reader manager (a CardChannel per connected card) and its reader provider
//   EIDCrypto            a small Swift facade over OpenSSL libcrypto
//   EAC                  SecurityInfos, PACE, secure messaging
//   CardSimulator        the software eID card (eid-sim, and the in-process "Simulator" reader provider)
//   SDK                  the AusweisApp2 SDK messages and commands (JSON)
//   Workflows            reader listing and change PIN as state machines speaking SDK messages;
//                        imports neither PCSC nor CardSimulator (the executables wire the providers)
//   eid, eid-sim         thin executables: arguments, terminal, exit codes

let swift5: [SwiftSetting] = [.swiftLanguageMode(.v5)]

let package = Package(
    name: "eid",
    platforms: [.macOS(.v13)],
    products: [
        .executable(name: "eid", targets: ["eid"]),
        .executable(name: "eid-sim", targets: ["eid-sim"]),
    ],
    dependencies: [
        .package(url: "https://github.com/apple/swift-argument-parser", from: "1.5.0"),
    ],
    targets: [
        .systemLibrary(name: "CPCSC", pkgConfig: "libpcsclite", providers: [.apt(["libpcsclite-dev"])]),
        .systemLibrary(name: "COpenSSL", pkgConfig: "openssl", providers: [.apt(["libssl-dev"])]),
        // OpenPACE, an independent PACE and secure messaging implementation: only PeerTests use it.
        .systemLibrary(name: "COpenPACE", pkgConfig: "libeac", providers: [.apt(["libeac-dev"])]),
        // No dependencies and no Foundation: SDK (messages, commands) and CardSimulator (profiles)
        // share it without either depending on the other or on a card layer.
        .target(name: "OrderedJSON"),
        .target(name: "CardAccess", swiftSettings: swift5),
        .target(name: "PCSC", dependencies: ["CPCSC", "CardAccess"], swiftSettings: swift5),
        .target(name: "EIDCrypto", dependencies: ["COpenSSL"], swiftSettings: swift5),
        .target(name: "EAC", dependencies: ["CardAccess", "EIDCrypto"], swiftSettings: swift5),
        .target(
            name: "CardSimulator", dependencies: ["CardAccess", "EIDCrypto", "EAC", "OrderedJSON"],
            swiftSettings: swift5
        ),
        .target(name: "SDK", dependencies: ["CardAccess", "OrderedJSON"], swiftSettings: swift5),
        .target(
            name: "Workflows",
            dependencies: ["CardAccess", "EAC", "SDK"],
            swiftSettings: swift5
        ),
        .executableTarget(
            name: "eid",
            dependencies: [
                "Workflows", "SDK", "PCSC", "CardSimulator", "CardAccess",
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
            ],
            swiftSettings: swift5
        ),
        // In-process figures for `make bench`; not installed.
        .executableTarget(
            name: "eid-bench", dependencies: ["CardSimulator", "EAC", "CardAccess"], swiftSettings: swift5
        ),
        .executableTarget(
            name: "eid-sim",
            dependencies: [
                "CardSimulator", "CardAccess",
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
            ],
            swiftSettings: swift5
        ),

        .testTarget(name: "OrderedJSONTests", dependencies: ["OrderedJSON"]),
        .testTarget(name: "CardAccessTests", dependencies: ["CardAccess"], swiftSettings: swift5),
        .testTarget(name: "PCSCTests", dependencies: ["PCSC"], swiftSettings: swift5),
        // The published test vectors and their loader, shared by the crypto and EAC tests.
        .target(
            name: "TestVectors", dependencies: ["CardAccess"], path: "Tests/TestVectors",
            resources: [.copy("Fixtures")], swiftSettings: swift5
        ),
        .testTarget(
            name: "EIDCryptoTests", dependencies: ["EIDCrypto", "CardAccess", "TestVectors"], swiftSettings: swift5
        ),
        .testTarget(
            name: "EACTests", dependencies: ["EAC", "EIDCrypto", "CardAccess", "TestVectors"], swiftSettings: swift5
        ),
        .testTarget(
            name: "CardSimulatorTests", dependencies: ["CardSimulator", "EAC", "CardAccess"], swiftSettings: swift5
        ),
        .testTarget(name: "SDKTests", dependencies: ["SDK"], swiftSettings: swift5),
        .testTarget(
            name: "WorkflowsTests", dependencies: ["Workflows", "SDK", "CardSimulator", "CardAccess"],
            swiftSettings: swift5
        ),
        .testTarget(name: "EndToEndTests", swiftSettings: swift5),
        // eid's terminal against OpenPACE's card, and OpenPACE's terminal against eid's software card.
        .testTarget(
            name: "PeerTests", dependencies: ["EAC", "EIDCrypto", "CardAccess", "CardSimulator", "COpenPACE"],
            swiftSettings: swift5
        ),
    ]
)

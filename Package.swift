// swift-tools-version:6.0
// Baton — licensed under the Apache License, Version 2.0 (LICENSE, NOTICE). The version is in VERSION.
import Foundation
import PackageDescription

/// A C library from Debian, reached through a module map and a shim header.
func systemLibrary(_ name: String, pkgConfig: String, apt: String) -> Target {
    .systemLibrary(name: name, pkgConfig: pkgConfig, providers: [.apt([apt])])
}

let package = Package(
    name: "Baton",
    platforms: [.macOS(.v14), .iOS(.v16)],
    products: [
        // An iOS app adds BatonClient and BatonApple (BatonCore comes with them). A server adds BatonServer (and
        // BatonSandbox for the provider simulators in development), or runs the `baton` executable. No app links the
        // server products, and no server links BatonApple. BatonCore alone is the wire contract both sides share.
        .library(name: "BatonCore", targets: ["BatonCore"]),
        // App: the flow machines and coordinators, the backend client, the presenters' contract.
        .library(name: "BatonClient", targets: ["BatonClient"]),
        // App (iOS, visionOS): the presenters and SwiftUI views, with the privacy manifest; empty elsewhere.
        .library(name: "BatonApple", targets: ["BatonApple"]),
        // Server: the partner backend.
        .library(name: "BatonServer", targets: ["BatonServer"]),
        // Server, development and tests only: the three provider simulators.
        .library(name: "BatonSandbox", targets: ["BatonSandbox"]),
        // Server: the command line (`baton serve`, `baton demo`, `baton doctor`, ...).
        .executable(name: "baton", targets: ["baton"]),
    ],
    dependencies: [],
    targets: [
        systemLibrary("CMicroHTTPD", pkgConfig: "libmicrohttpd", apt: "libmicrohttpd-dev"),
        systemLibrary("CCurl", pkgConfig: "libcurl", apt: "libcurl4-openssl-dev"),
        systemLibrary("CSQLite", pkgConfig: "sqlite3", apt: "libsqlite3-dev"),
        systemLibrary("CLibPQ", pkgConfig: "libpq", apt: "libpq-dev"),
        systemLibrary("COpenSSL", pkgConfig: "libcrypto", apt: "libssl-dev"),

        .target(name: "BatonCore"),
        .target(name: "BatonCrypto", dependencies: ["BatonCore", "COpenSSL"]),
        .target(name: "BatonHTTP", dependencies: ["BatonCore", "CMicroHTTPD", "CCurl"]),
        .target(name: "BatonClient", dependencies: ["BatonCore"]),
        // The privacy manifest ships as a resource (an empty module elsewhere still builds, with the file bundled).
        .target(name: "BatonApple", dependencies: ["BatonClient"], resources: [.copy("PrivacyInfo.xcprivacy")]),
        // The headless app's browser (fetches the sandbox's hosted pages): tooling, so no iOS app links it.
        .target(name: "BatonHeadless", dependencies: ["BatonClient", "BatonCore"]),
        // The in-process/live test client for a Router (as Hummingbird ships HummingbirdTesting).
        .target(name: "BatonHTTPTesting", dependencies: ["BatonHTTP"]),
        // Test targets only: one seeded generator, one vector-file loader, one manual clock (no server: the core,
        // crypto and client tests build only what they test).
        .target(name: "BatonTestSupport", dependencies: ["BatonClient"]),
        // Test targets only: temporary databases, SQLite or PostgreSQL, for the store and backend tests.
        .target(name: "BatonStoreTestSupport", dependencies: ["BatonServer"]),
        .target(
            name: "BatonSandbox",
            dependencies: ["BatonCore", "BatonHTTP", "BatonCrypto"]
        ),
        .target(
            name: "BatonServer",
            dependencies: ["BatonCore", "BatonHTTP", "BatonCrypto", "CSQLite", "CLibPQ"],
            plugins: [.plugin(name: "EmbedTextFiles")]
        ),
        // The backend's readers of untrusted input, one entry point each, for BatonFuzz and for the replay of kept
        // inputs in the tests: not part of the shipped BatonServer.
        .target(name: "BatonServerFuzzing", dependencies: ["BatonCore", "BatonHTTP", "BatonServer"]),
        // The web shell's files and the OpenAPI document are files in BatonServer, embedded at build time.
        .executableTarget(name: "BatonEmbed"),
        .plugin(name: "EmbedTextFiles", capability: .buildTool(), dependencies: ["BatonEmbed"]),
        .target(
            name: "BatonCLI",
            dependencies: [
                "BatonCore", "BatonClient", "BatonHeadless", "BatonHTTP", "BatonServer", "BatonSandbox", "BatonCrypto",
            ]
        ),
        .executableTarget(name: "baton", dependencies: ["BatonCLI"]),
        // Every `scripts/bench-*` benchmark, one subcommand each (release build; `BatonBench --help`).
        .executableTarget(
            name: "BatonBench",
            dependencies: ["BatonCore", "BatonHTTP", "BatonServer", "BatonSandbox", "CSQLite", "CLibPQ"]),

        .testTarget(name: "BatonCoreTests", dependencies: ["BatonCore", "BatonTestSupport"]),
        .testTarget(
            name: "BatonCryptoTests", dependencies: ["BatonCrypto", "BatonTestSupport"], exclude: ["Vectors"]),
        .testTarget(name: "BatonHTTPTests", dependencies: ["BatonHTTP", "BatonHTTPTesting"]),
        .testTarget(name: "BatonClientTests", dependencies: ["BatonClient", "BatonTestSupport"]),
        .testTarget(
            name: "BatonSandboxTests",
            dependencies: ["BatonSandbox", "BatonHTTP", "BatonCore", "BatonCrypto", "BatonTestSupport"]),
        .testTarget(
            name: "BatonServerTests",
            dependencies: [
                "BatonServer", "BatonServerFuzzing", "BatonSandbox", "BatonHTTP", "BatonHTTPTesting",
                "BatonTestSupport", "BatonStoreTestSupport",
            ]),
        .testTarget(name: "BatonCLITests", dependencies: ["BatonCLI", "BatonHTTP", "BatonTestSupport"]),
        // The headless app against a live backend and the sandbox: needs the server side, so not BatonClientTests.
        .testTarget(
            name: "BatonEndToEndTests",
            dependencies: [
                "BatonClient", "BatonCore", "BatonHeadless", "BatonServer", "BatonSandbox", "BatonHTTP", "BatonCrypto",
                "BatonTestSupport",
            ]),
    ]
)

// The libFuzzer target is opt-in: `swift test` never builds it. `make fuzz` sets BATON_FUZZ=1.
if ProcessInfo.processInfo.environment["BATON_FUZZ"] != nil {
    package.targets += [
        .systemLibrary(name: "CFuzzer", path: "Sources/CFuzzer"),
        .executableTarget(
            name: "BatonFuzz", dependencies: ["BatonCore", "BatonServerFuzzing", "CFuzzer"]),
    ]
    package.products += [.executable(name: "BatonFuzz", targets: ["BatonFuzz"])]
    // Instrument the code under test here rather than with `-Xswiftc`, which would also reach the build-time tool
    // BatonEmbed (the EmbedTextFiles plugin's), whose link then fails for want of libFuzzer's entry point.
    let fuzzing: [String] = ["-sanitize=fuzzer,address"]
    for target in package.targets where target.type == .regular || target.name == "BatonFuzz" {
        target.swiftSettings = (target.swiftSettings ?? []) + [.unsafeFlags(fuzzing)]
    }
    for target in package.targets where target.name == "BatonFuzz" {
        target.linkerSettings = [.unsafeFlags(fuzzing + ["-use-ld=lld"])]
    }
}

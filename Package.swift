// swift-tools-version:6.1
import PackageDescription

// Access shows the layers: a declaration sibling targets share is `package`, an import is internal unless a
// `package` declaration shows its types, and a file imports every module whose members it uses.
let swiftSettings: [SwiftSetting] = [
    .enableUpcomingFeature("ExistentialAny"),
    .enableUpcomingFeature("MemberImportVisibility"),
    .enableUpcomingFeature("InternalImportsByDefault"),
]

let package = Package(
    name: "PayCheck",
    platforms: [.macOS(.v14)],
    // PayCheck is used as a command (`paycheck run`, `paycheck mock` as a server any language talks to over HTTP);
    // its modules are not a Swift library API, so no library product is offered and they share through `package`.
    products: [
        .executable(name: "paycheck", targets: ["paycheck"]),
        .executable(name: "reference-shop", targets: ["ReferenceShop"]),
    ],
    dependencies: [
        .package(url: "https://github.com/apple/swift-argument-parser", from: "1.8.2"),
        .package(url: "https://github.com/jpsim/Yams", from: "6.2.2"),
        .package(url: "https://github.com/apple/swift-crypto", from: "4.5.2"),
        .package(url: "https://github.com/swift-server/async-http-client", from: "1.37.0"),
        .package(url: "https://github.com/hummingbird-project/hummingbird", from: "2.28.1"),
        .package(url: "https://github.com/apple/swift-log", from: "1.16.2"),
        .package(url: "https://github.com/apple/swift-nio", from: "2.80.0"),
        .package(url: "https://github.com/apple/swift-nio-ssl", from: "2.37.6"),
        .package(url: "https://github.com/swift-server/swift-service-lifecycle", from: "2.13.0"),
    ],
    targets: [
        .target(
            name: "PayCheckCore",
            dependencies: [.product(name: "Yams", package: "Yams")],
            swiftSettings: swiftSettings
        ),
        .target(
            name: "PayCheckProviders",
            dependencies: [
                "PayCheckCore",
                .product(name: "Crypto", package: "swift-crypto"),
                .product(name: "_CryptoExtras", package: "swift-crypto"),
            ],
            swiftSettings: swiftSettings
        ),
        .target(
            name: "PayCheckMock",
            dependencies: [
                "PayCheckCore",
                "PayCheckProviders",
                "MollieCheckoutDemoBackend",
                .product(name: "Hummingbird", package: "hummingbird"),
                // The mock over HTTPS (`paycheck mock --tls-certificate`, and the live path's tests).
                .product(name: "HummingbirdTLS", package: "hummingbird"),
                .product(name: "NIOSSL", package: "swift-nio-ssl"),
                .product(name: "Logging", package: "swift-log"),
                .product(name: "ServiceLifecycle", package: "swift-service-lifecycle"),
            ],
            swiftSettings: swiftSettings
        ),
        .target(
            name: "PayCheckRunner",
            dependencies: [
                "PayCheckCore",
                "PayCheckProviders",
                .product(name: "AsyncHTTPClient", package: "async-http-client"),
                .product(name: "Logging", package: "swift-log"),
                // The transport tells a refused connection from a broken one by NIO's error types.
                .product(name: "NIOPosix", package: "swift-nio"),
                // A live target's TLS: its CA bundle and client certificate (``LiveTarget/TLSOptions``).
                .product(name: "NIOSSL", package: "swift-nio-ssl"),
                // Target profiles (`paycheck.yaml`).
                .product(name: "Yams", package: "Yams"),
            ],
            swiftSettings: swiftSettings
        ),
        // The one place that joins the runner and the mock host: a run session for the CLI and the tests.
        .target(
            name: "PayCheckSession",
            dependencies: [
                "PayCheckCore", "PayCheckProviders", "PayCheckRunner", "PayCheckMock",
                .product(name: "AsyncHTTPClient", package: "async-http-client"),
            ],
            swiftSettings: swiftSettings
        ),
        .target(
            name: "PayCheckReports",
            dependencies: ["PayCheckCore", "PayCheckRunner"],
            swiftSettings: swiftSettings
        ),
        .target(
            name: "PayCheckTestSupport",
            dependencies: [
                "PayCheckCore", "PayCheckRunner", "PayCheckMock", "PayCheckProviders", "PayCheckSession",
                .product(name: "AsyncHTTPClient", package: "async-http-client"),
            ],
            swiftSettings: swiftSettings
        ),
        // What the commands do, apart from their command line: init's project, explain's text, where suites and merchant
        // packs are found and how they load, the report files, the states and targets tables. `paycheck` parses the
        // arguments, calls it and maps its errors to exit codes; the tests call it in-process.
        .target(
            name: "PayCheckCommands",
            dependencies: ["PayCheckCore", "PayCheckProviders", "PayCheckRunner", "PayCheckReports", "PayCheckMock"],
            swiftSettings: swiftSettings
        ),
        // Holds SIGINT and SIGTERM from before `main`, so a signal while `paycheck run` starts is seen, not fatal.
        .target(name: "CPayCheckSignals"),
        // The command line, and nothing else: each command parses its arguments, calls PayCheckCommands (or, for `run`,
        // `mock` and `drift`, the session and the mock host), prints, and maps errors to exit codes.
        .executableTarget(
            name: "paycheck",
            dependencies: [
                "CPayCheckSignals", "PayCheckCommands", "PayCheckCore", "PayCheckRunner", "PayCheckReports", "PayCheckMock", "PayCheckProviders", "PayCheckSession",
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
                .product(name: "AsyncHTTPClient", package: "async-http-client"),
                .product(name: "NIOSSL", package: "swift-nio-ssl"),
            ],
            swiftSettings: swiftSettings,
            plugins: ["BuildInfo"]
        ),
        // Stamps the commit into the paycheck binary for `paycheck version`.
        .plugin(name: "BuildInfo", capability: .buildTool()),
        // The reference merchant backends live in ReferenceBackends/, beside the Python one; they are built for the tests
        // and examples, and scripts/install.sh, which builds `--product paycheck` only, ships none of them as a binary.
        //
        // A reference merchant backend for Mollie's iOS Checkout demo: an example merchant that knows Mollie only
        // through HTTP. The mock host serves it under /merchants/mollie-checkout-demo, for Suites/mollie/demo-backend.yaml,
        // so it is linked into `paycheck` through PayCheckMock.
        .target(
            name: "MollieCheckoutDemoBackend",
            dependencies: [.product(name: "Hummingbird", package: "hummingbird")],
            path: "ReferenceBackends/mollie-checkout-demo/Backend",
            swiftSettings: swiftSettings
        ),
        // The same backend on its own port (.ci/run checks it with a standalone mock as its Mollie).
        .executableTarget(
            name: "mollie-demo-backend",
            dependencies: [
                "MollieCheckoutDemoBackend",
                .product(name: "Hummingbird", package: "hummingbird"),
                .product(name: "AsyncHTTPClient", package: "async-http-client"),
            ],
            path: "ReferenceBackends/mollie-checkout-demo/Server",
            swiftSettings: swiftSettings
        ),
        // PayCheck's reference merchant backend for Mollie, PlacetoPay, khipu, MIT and Yuno: a merchant's code written
        // apart from PayCheck (it depends on no PayCheck target); its contract.yaml, beside it, runs the packs against it.
        .executableTarget(
            name: "ReferenceShop",
            dependencies: [
                .product(name: "Hummingbird", package: "hummingbird"),
                .product(name: "AsyncHTTPClient", package: "async-http-client"),
                .product(name: "Crypto", package: "swift-crypto"),
                .product(name: "_CryptoExtras", package: "swift-crypto"),
            ],
            path: "ReferenceBackends/swift-shop",
            exclude: ["README.md", "contract.yaml"],
            swiftSettings: swiftSettings
        ),
        // Benchmarks only: Hummingbird's hello world, the floor for the mock's throughput (Benchmarks/run.sh).
        .executableTarget(
            name: "HelloBench",
            dependencies: [.product(name: "Hummingbird", package: "hummingbird")],
            path: "Benchmarks/HelloServer",
            swiftSettings: swiftSettings
        ),
        // Benchmarks only: drives the stress test's provider lifecycles (or hello-world GETs) against a running server.
        .executableTarget(
            name: "LifecycleBench",
            dependencies: [
                "PayCheckTestSupport",
                .product(name: "Hummingbird", package: "hummingbird"),
                .product(name: "AsyncHTTPClient", package: "async-http-client"),
                .product(name: "Logging", package: "swift-log"),
            ],
            path: "Benchmarks/LifecycleBench",
            swiftSettings: swiftSettings
        ),
        .testTarget(name: "PayCheckCoreTests", dependencies: ["PayCheckCore", "PayCheckTestSupport"], resources: [.copy("Fixtures")], swiftSettings: swiftSettings),
        .testTarget(
            name: "PayCheckRunnerTests",
            dependencies: [
                "PayCheckRunner", "PayCheckMock", "PayCheckSession", "PayCheckTestSupport", "PayCheckProviders", "PayCheckReports",
                .product(name: "Hummingbird", package: "hummingbird"),
                .product(name: "AsyncHTTPClient", package: "async-http-client"), .product(name: "Crypto", package: "swift-crypto"),
                .product(name: "Logging", package: "swift-log"),
            ],
            exclude: ["TinyPay/Suites"],
            swiftSettings: swiftSettings
        ),
        .testTarget(name: "PayCheckReportsTests", dependencies: ["PayCheckReports", "PayCheckTestSupport"], resources: [.copy("Snapshots")], swiftSettings: swiftSettings),
        .testTarget(
            name: "PayCheckMockTests",
            dependencies: [
                "PayCheckMock", "PayCheckTestSupport", .product(name: "HummingbirdTesting", package: "hummingbird"), .product(name: "NIOPosix", package: "swift-nio"),
                .product(name: "Logging", package: "swift-log"),
            ], swiftSettings: swiftSettings),
        .testTarget(name: "PayCheckProvidersTests", dependencies: ["PayCheckProviders"], resources: [.copy("Fixtures")], swiftSettings: swiftSettings),
        // The commands' logic in-process: init, explain, suite and pack discovery, report files, the states and targets
        // tables. paycheckTests runs the binary where the process is the point (exit codes, signals, golden folders).
        .testTarget(
            name: "PayCheckCommandsTests",
            dependencies: ["PayCheckCommands", "PayCheckTestSupport"],
            swiftSettings: swiftSettings
        ),
        .testTarget(
            name: "paycheckTests",
            dependencies: ["PayCheckTestSupport", .product(name: "AsyncHTTPClient", package: "async-http-client")],
            swiftSettings: swiftSettings
        ),
    ]
)

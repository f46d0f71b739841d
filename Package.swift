// swift-tools-version: 6.2
import PackageDescription

// Our own targets treat every warning as an error; dependencies keep their own settings.
//
// The targets the command-line tool links import FoundationEssentials where it exists (Linux), and
// all of Foundation only where it does not (Apple platforms, where it is the system's):
//   #if canImport(FoundationEssentials) import FoundationEssentials #else import Foundation #endif
// One plain `import Foundation` would link ICU's data into the shipped binary for nothing
// (docs/PERFORMANCE.md, "Size", has the figure); scripts/check-cli-imports fails CI on one.
let strict: [SwiftSetting] = [.treatAllWarnings(as: .error)]

let package = Package(
  name: "btc-price",
  platforms: [.macOS(.v14), .iOS(.v17)],
  products: [
    .executable(name: "btc-price", targets: ["btc-price"]),
    .library(name: "BTCPriceRuntime", targets: ["BTCPriceRuntime"]),
    .library(name: "BTCPriceCore", targets: ["BTCPriceCore"]),
    .library(name: "BTCPriceSources", targets: ["BTCPriceSources"]),
    .library(name: "BTCPricePipeline", targets: ["BTCPricePipeline"]),
    .library(name: "BTCPricePersistence", targets: ["BTCPricePersistence"]),
    .library(name: "BTCPriceFeature", targets: ["BTCPriceFeature"]),
    .library(name: "BTCPriceTerminal", targets: ["BTCPriceTerminal"]),
    .library(name: "BTCPriceSettings", targets: ["BTCPriceSettings"]),
    .library(name: "BTCPriceServer", targets: ["BTCPriceServer"]),
    .library(name: "BTCPricePublish", targets: ["BTCPricePublish"]),
    // How alerts reach the user besides the views (CLI only: the iPhone app must not link it).
    .library(name: "BTCPriceAlerts", targets: ["BTCPriceAlerts"]),
    // The command line's front ends, composed and tested; the executable parses and calls them.
    .library(name: "BTCPriceCommandLine", targets: ["BTCPriceCommandLine"]),
    .library(name: "BTCPriceNIO", targets: ["BTCPriceNIO"]),
    .library(name: "BTCPriceURLSession", targets: ["BTCPriceURLSession"]),
    // The SwiftUI screen of the iPhone app (App/iOS); empty where SwiftUI does not exist.
    .library(name: "BTCPriceUI", targets: ["BTCPriceUI"]),
    // The iPhone app's composition root (App/iOS is a thin SwiftUI shell around it).
    .library(name: "BTCPriceAppComposition", targets: ["BTCPriceAppComposition"]),
    // Every decision of the iPhone app's widget (App/iOS/Widget), without WidgetKit.
    .library(name: "BTCPriceWidgetCore", targets: ["BTCPriceWidgetCore"]),
    // For the Benchmarks package, which drives the real pipeline against the fake exchange.
    .library(name: "BTCPriceTestSupport", targets: ["BTCPriceTestSupport"]),
  ],
  dependencies: [
    .package(url: "https://github.com/apple/swift-argument-parser", from: "1.8.2"),
    .package(url: "https://github.com/apple/swift-nio", from: "2.101.2"),
    .package(url: "https://github.com/apple/swift-nio-ssl", from: "2.37.6"),
    .package(url: "https://github.com/pointfreeco/swift-clocks", from: "1.1.1"),
    .package(url: "https://github.com/apple/swift-log", from: "1.16.2"),
    // `btc-price serve`. Hummingbird without its traits: ConfigurationSupport we do not use, and
    // FullFoundation would link all of Foundation and ICU's data into the command-line tool
    // (docs/PERFORMANCE.md, "Size").
    .package(
      url: "https://github.com/hummingbird-project/hummingbird", from: "2.28.1",
      traits: []),
    .package(url: "https://github.com/swift-server/swift-service-lifecycle", from: "2.13.0"),
    .package(url: "https://github.com/apple/swift-metrics", from: "2.13.0"),
    .package(url: "https://github.com/apple/swift-http-types", from: "1.8.0"),
    .package(url: "https://github.com/apple/swift-nio-extras", from: "1.35.2"),
    .package(url: "https://github.com/swift-server/swift-prometheus", from: "2.4.1"),
    // The alerts' child processes (`--on-alert`, `--notify`): one spawner for Linux and Darwin.
    // Without its default trait SubprocessFoundation, which would import all of Foundation on
    // Apple's systems and adds nothing the runner uses (scripts/check-cli-imports).
    .package(url: "https://github.com/swiftlang/swift-subprocess", from: "1.0.2", traits: []),
    // File descriptors without hand-written POSIX (the settings file).
    .package(url: "https://github.com/apple/swift-system", from: "1.8.1"),
  ],
  targets: [
    // The threads, locks, clocks and store writer the rest runs on; Core above it does no I/O.
    .target(name: "BTCPriceRuntime", swiftSettings: strict),
    .target(name: "BTCPriceCore", dependencies: ["BTCPriceRuntime"], swiftSettings: strict),
    // Every price source: its registry entry, its mappers, its stream and candles, and the
    // transport interfaces, proxies and trust its requests go through.
    .target(
      name: "BTCPriceSources", dependencies: ["BTCPriceCore", "BTCPriceRuntime"],
      swiftSettings: strict),
    // What a run ticks through, wired once: the chain, the streams, the limits, the feed and
    // the cache for a currency. Every front end (the tool's and the app's) builds one.
    .target(
      name: "BTCPricePipeline",
      dependencies: ["BTCPriceCore", "BTCPriceRuntime", "BTCPriceSources"],
      swiftSettings: strict),
    // The command-line tool's HTTPClient on SwiftNIO's HTTP/1.1 codec, and the one-thread runtime
    // its ticks run on. Not AsyncHTTPClient: docs/PERFORMANCE.md, "Why SwiftNIO's HTTP/1.1
    // codec".
    .target(
      name: "BTCPriceNIO",
      dependencies: [
        "BTCPriceSources",
        .product(name: "NIOConcurrencyHelpers", package: "swift-nio"),
        .product(name: "NIOCore", package: "swift-nio"),
        .product(name: "NIOHTTP1", package: "swift-nio"),
        .product(name: "NIOPosix", package: "swift-nio"),
        .product(name: "NIOSSL", package: "swift-nio-ssl"),
        // The price streams' transport (NIOWebSocketConnector). The proxies' CONNECT and SOCKS5
        // handshakes are ours (ProxyTunnel, SOCKS5ClientHandshake): NIOSOCKS's client does no
        // user name and password.
        .product(name: "NIOWebSocket", package: "swift-nio"),
      ],
      swiftSettings: strict
    ),
    // The URLSession adapter for the Apple apps. A target of its own: on Linux FoundationNetworking
    // pulls in libcurl, OpenSSL and Kerberos, which the command-line tool must not load
    // (docs/PERFORMANCE.md, "Peak RSS").
    .target(
      name: "BTCPriceURLSession", dependencies: ["BTCPriceSources"], swiftSettings: strict),
    .target(
      name: "BTCPricePersistence", dependencies: ["BTCPriceCore", "BTCPriceRuntime"],
      swiftSettings: strict),
    .target(
      name: "BTCPriceFeature", dependencies: ["BTCPriceCore", "BTCPriceRuntime"],
      swiftSettings: strict),
    .target(
      name: "BTCPriceTerminal",
      dependencies: ["BTCPriceCore", "BTCPriceRuntime", "BTCPriceFeature", "CBTCPriceRuntime"],
      swiftSettings: strict),
    // The settings file and its layering under the command line and the environment (CLI only).
    .target(
      name: "BTCPriceSettings",
      dependencies: [
        "BTCPriceCore", "BTCPriceRuntime", "BTCPriceSources", "BTCPriceFeature",
        .product(name: "SystemPackage", package: "swift-system"),
      ],
      swiftSettings: strict
    ),
    // `btc-price serve`: the web page, the JSON and SSE API and the metrics, fed by one ticker.
    .target(
      name: "BTCPriceServer",
      dependencies: [
        // BTCPriceNIO for its EventLoopExecutor (stream viewers run on their loop);
        // BTCPriceTerminal for the plain line and the text chart `GET /` answers `curl` with.
        "BTCPriceCore", "BTCPriceRuntime", "BTCPriceFeature", "BTCPriceNIO", "BTCPriceSources",
        "BTCPriceTerminal",
        .product(name: "Hummingbird", package: "hummingbird"),
        .product(name: "HummingbirdCore", package: "hummingbird"),
        .product(name: "ServiceLifecycle", package: "swift-service-lifecycle"),
        .product(name: "Metrics", package: "swift-metrics"),
        .product(name: "Prometheus", package: "swift-prometheus"),
        .product(name: "HTTPTypes", package: "swift-http-types"),
        .product(name: "NIOCore", package: "swift-nio"),
        .product(name: "NIOConcurrencyHelpers", package: "swift-nio"),
        .product(name: "NIOHTTPTypes", package: "swift-nio-extras"),
        .product(name: "NIOHTTP1", package: "swift-nio"),
      ],
      swiftSettings: strict
    ),
    // `btc-price publish`: each tick's page, JSON and event, serve's own bytes, handed to nginx +
    // nchan edges over the tool's HTTP client.
    .target(
      name: "BTCPricePublish",
      dependencies: [
        "BTCPriceCore", "BTCPriceRuntime", "BTCPriceFeature", "BTCPriceSources", "BTCPriceServer",
      ],
      swiftSettings: strict
    ),
    // The alerts' deliveries besides the views: --on-alert's command, --notify's desktop
    // notification, serve's --alert-webhook. CLI only: it starts processes.
    .target(
      name: "BTCPriceAlerts",
      dependencies: [
        "BTCPriceCore", "BTCPriceFeature", "BTCPriceSources",
        .product(name: "NIOConcurrencyHelpers", package: "swift-nio"),
        // The commands' processes, spawned the same way on Linux and Darwin.
        .product(name: "Subprocess", package: "swift-subprocess"),
      ],
      swiftSettings: strict
    ),
    // Only views that bind to BTCPriceFeature's view model: no logic, and nothing that links NIO.
    .target(
      name: "BTCPriceUI", dependencies: ["BTCPriceCore", "BTCPriceFeature"], swiftSettings: strict),
    // What the widget shows and when it reloads; its views in App/iOS/Widget only lay it out.
    .target(
      name: "BTCPriceWidgetCore", dependencies: ["BTCPriceCore", "BTCPriceFeature"],
      swiftSettings: strict),
    // What the iPhone app and its widget wire, without SwiftUI, so Linux builds and tests it. No
    // SwiftNIO: scripts/check-app-dependencies fails the build if anything here reaches another
    // package.
    .target(
      name: "BTCPriceAppComposition",
      dependencies: [
        "BTCPriceCore", "BTCPriceSources", "BTCPricePipeline", "BTCPriceURLSession",
        "BTCPricePersistence",
        "BTCPriceFeature", "BTCPriceWidgetCore",
      ],
      swiftSettings: strict
    ),
    // The command line's front ends (the terminal's, `serve`'s, `doctor`'s): every decision and
    // every word of the tool that is not the presenter's, behind the executable's parsing.
    .target(
      name: "BTCPriceCommandLine",
      dependencies: [
        "BTCPriceCore", "BTCPriceRuntime",
        "BTCPriceSources",
        "BTCPricePipeline",
        "BTCPriceNIO",
        "BTCPricePersistence",
        "BTCPriceFeature",
        "BTCPriceTerminal",
        "BTCPriceSettings",
        "BTCPriceServer",
        "BTCPricePublish",
        "BTCPriceAlerts",
        .product(name: "ServiceLifecycle", package: "swift-service-lifecycle"),
        .product(name: "Logging", package: "swift-log"),
        .product(name: "NIOCore", package: "swift-nio"),
        .product(name: "NIOConcurrencyHelpers", package: "swift-nio"),
        .product(name: "NIOPosix", package: "swift-nio"),
        "CBTCPriceRuntime",
      ],
      swiftSettings: strict
    ),
    // A signal handler that writes to a pipe, and the address of the Swift runtime's hook for
    // the default pool: what BTCPriceCommandLine needs from C (ConcurrencyPool, SignalTrap).
    .target(name: "CBTCPriceRuntime"),
    // Parses the options and calls a front end of BTCPriceCommandLine: options in, an exit code
    // out.
    .executableTarget(
      name: "btc-price",
      dependencies: [
        "BTCPriceCommandLine",
        "BTCPriceCore",
        "BTCPriceSettings",
        "BTCPriceSources",
        "BTCPriceNIO",
        "BTCPriceTerminal",
        "BTCPriceServer",
        "BTCPricePublish",
        "BTCPriceAlerts",
        .product(name: "ArgumentParser", package: "swift-argument-parser"),
      ],
      swiftSettings: strict
    ),
    // The tests' fake exchange as a program: scripts/check-packages points the packaged
    // btc-price at it (a debug build; never shipped).
    .executableTarget(
      name: "fake-exchange", dependencies: ["BTCPriceTestSupport", "BTCPriceSources"],
      swiftSettings: strict),
    .target(
      name: "BTCPriceTestSupport",
      dependencies: [
        "BTCPriceCore", "BTCPriceRuntime",
        "BTCPriceSources",
        .product(name: "NIOCore", package: "swift-nio"),
        .product(name: "NIOHTTP1", package: "swift-nio"),
        .product(name: "NIOPosix", package: "swift-nio"),
        // FakeTLSServer, for the tests of trust and TLS failures.
        .product(name: "NIOSSL", package: "swift-nio-ssl"),
        .product(name: "NIOWebSocket", package: "swift-nio"),
        .product(name: "Clocks", package: "swift-clocks"),
        // RouterTester and withRunningApplication: serve's routes in-process and on a real port,
        // without HummingbirdTesting (whose target brings AsyncHTTPClient and NIOHTTP2 into the
        // test build).
        .product(name: "Hummingbird", package: "hummingbird"),
        .product(name: "HummingbirdCore", package: "hummingbird"),
        .product(name: "HTTPTypes", package: "swift-http-types"),
        .product(name: "Logging", package: "swift-log"),
        .product(name: "NIOConcurrencyHelpers", package: "swift-nio"),
        .product(name: "NIOEmbedded", package: "swift-nio"),
        .product(name: "ServiceLifecycle", package: "swift-service-lifecycle"),
      ],
      swiftSettings: strict
    ),
    .testTarget(
      name: "BTCPriceCoreTests",
      dependencies: [
        "BTCPriceCore", "BTCPriceRuntime", "BTCPriceTestSupport",
        .product(name: "Clocks", package: "swift-clocks"),
      ],
      swiftSettings: strict
    ),
    .testTarget(
      name: "BTCPriceSourcesTests",
      dependencies: ["BTCPriceSources", "BTCPriceTestSupport"],
      swiftSettings: strict
    ),
    .testTarget(
      name: "BTCPricePersistenceTests",
      dependencies: ["BTCPricePersistence", "BTCPriceTestSupport"],
      swiftSettings: strict
    ),
    .testTarget(
      name: "BTCPriceFeatureTests",
      dependencies: ["BTCPriceFeature", "BTCPriceCore", "BTCPriceRuntime", "BTCPriceTestSupport"],
      swiftSettings: strict
    ),
    .testTarget(
      name: "BTCPriceTerminalTests",
      dependencies: ["BTCPriceTerminal", "BTCPriceTestSupport"],
      swiftSettings: strict
    ),
    .testTarget(
      name: "BTCPriceAlertsTests",
      dependencies: [
        "BTCPriceAlerts", "BTCPriceCore", "BTCPriceRuntime", "BTCPriceFeature",
        "BTCPriceSources",
        "BTCPriceTestSupport", "BTCPriceNIO",
        // RunAlertCommandsTests starts commands from a tick on an event loop.
        .product(name: "NIOCore", package: "swift-nio"),
        .product(name: "NIOPosix", package: "swift-nio"),
      ],
      swiftSettings: strict
    ),
    .testTarget(
      name: "BTCPriceCommandLineTests",
      dependencies: [
        "BTCPriceCommandLine", "BTCPriceCore", "BTCPriceRuntime", "BTCPriceFeature",
        "BTCPriceSources",
        "BTCPricePersistence", "BTCPriceSettings", "BTCPriceTerminal", "BTCPriceTestSupport",
      ],
      swiftSettings: strict
    ),
    .testTarget(
      name: "BTCPriceSettingsTests",
      dependencies: ["BTCPriceSettings", "BTCPriceTestSupport"],
      swiftSettings: strict
    ),
    .testTarget(
      name: "BTCPriceIntegrationTests",
      dependencies: [
        "BTCPriceCore", "BTCPriceRuntime", "BTCPriceSources", "BTCPriceNIO",
        "BTCPriceURLSession",
        "BTCPricePersistence", "BTCPriceFeature", "BTCPriceTerminal", "BTCPriceTestSupport",
        .product(name: "NIOCore", package: "swift-nio"),
        .product(name: "NIOEmbedded", package: "swift-nio"),
        .product(name: "NIOPosix", package: "swift-nio"),
      ],
      swiftSettings: strict
    ),
    .testTarget(
      name: "BTCPriceAppCompositionTests",
      dependencies: [
        "BTCPriceAppComposition", "BTCPriceFeature", "BTCPriceSources", "BTCPricePersistence",
        "BTCPriceWidgetCore", "BTCPriceTestSupport",
      ],
      swiftSettings: strict
    ),
    .testTarget(
      name: "BTCPriceWidgetCoreTests",
      dependencies: [
        "BTCPriceWidgetCore", "BTCPriceCore", "BTCPriceFeature", "BTCPriceTestSupport",
      ],
      swiftSettings: strict
    ),
    .testTarget(
      name: "BTCPricePipelineTests",
      dependencies: [
        "BTCPricePipeline", "BTCPriceSources", "BTCPriceCore", "BTCPriceRuntime",
        "BTCPriceTestSupport",
        .product(name: "Clocks", package: "swift-clocks"),
      ],
      swiftSettings: strict
    ),
    .testTarget(
      name: "BTCPricePublishTests",
      dependencies: [
        "BTCPricePublish", "BTCPriceServer", "BTCPriceSources", "BTCPriceCore", "BTCPriceRuntime",
        "BTCPriceFeature", "BTCPriceTestSupport",
        .product(name: "Clocks", package: "swift-clocks"),
      ],
      swiftSettings: strict
    ),
    .testTarget(
      name: "BTCPriceServerTests",
      dependencies: [
        "BTCPriceServer", "BTCPricePublish", "BTCPriceCore", "BTCPriceRuntime", "BTCPriceFeature",
        "BTCPriceTerminal", "BTCPriceTestSupport",
        .product(name: "Hummingbird", package: "hummingbird"),
        .product(name: "HTTPTypes", package: "swift-http-types"),
        .product(name: "Logging", package: "swift-log"),
        .product(name: "ServiceLifecycle", package: "swift-service-lifecycle"),
        .product(name: "NIOCore", package: "swift-nio"),
        .product(name: "NIOPosix", package: "swift-nio"),
        .product(name: "NIOWebSocket", package: "swift-nio"),
        .product(name: "Clocks", package: "swift-clocks"),
      ],
      swiftSettings: strict
    ),
    .testTarget(
      name: "BTCPriceEndToEndTests",
      dependencies: [
        // BTCPriceNIO's client for serve's and the edges' plain requests; their streams through
        // BTCPriceTestSupport's HTTPStreamReader.
        "btc-price", "BTCPriceTestSupport", "BTCPriceNIO", "BTCPriceSources",
        .product(name: "NIOCore", package: "swift-nio"),
      ],
      swiftSettings: strict
    ),
  ]
)

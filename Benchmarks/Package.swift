// swift-tools-version: 6.2
import Foundation
import PackageDescription

// Micro-benchmarks for btc-price, kept out of the root package so its build stays lean.
// Run with: cd Benchmarks && swift package benchmark
//
// A path dependency is named by its folder, which differs between clones ("btc-price", "main",
// a CI checkout...), so the root package's identity is computed from this file's location.
let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
let rootIdentity = root.lastPathComponent.lowercased()

let package = Package(
  name: "btc-price-benchmarks",
  platforms: [.macOS(.v14)],
  dependencies: [
    .package(path: ".."),
    .package(url: "https://github.com/apple/swift-nio", from: "2.101.2"),
    .package(
      url: "https://github.com/ordo-one/benchmark", from: "1.38.1", traits: ["MallocInterposer"]),
  ],
  targets: [
    .executableTarget(
      name: "PriceBenchmarks",
      dependencies: [
        .product(name: "Benchmark", package: "benchmark"),
        .product(name: "NIOConcurrencyHelpers", package: "swift-nio"),
        .product(name: "BTCPriceCore", package: rootIdentity),
        .product(name: "BTCPriceSources", package: rootIdentity),
        .product(name: "BTCPriceNIO", package: rootIdentity),
        .product(name: "BTCPricePersistence", package: rootIdentity),
        .product(name: "BTCPriceFeature", package: rootIdentity),
        .product(name: "BTCPriceTerminal", package: rootIdentity),
        .product(name: "BTCPriceTestSupport", package: rootIdentity),
      ],
      path: "Benchmarks/PriceBenchmarks",
      swiftSettings: [.treatAllWarnings(as: .error)],
      plugins: [.plugin(name: "BenchmarkPlugin", package: "benchmark")]
    ),
    // What SwiftNIO itself costs for btc-price's streaming second, a floor for scripts/measure
    // --side-by-side (docs/PERFORMANCE.md, "The SwiftNIO floor"). None of the product's modules.
    .executableTarget(
      name: "nio-stream-floor",
      dependencies: [
        .product(name: "NIOCore", package: "swift-nio"),
        .product(name: "NIOPosix", package: "swift-nio"),
        .product(name: "NIOHTTP1", package: "swift-nio"),
        .product(name: "NIOWebSocket", package: "swift-nio"),
      ],
      path: "Benchmarks/NIOStreamFloor",
      swiftSettings: [.treatAllWarnings(as: .error)]
    ),
  ]
)

// swift-tools-version: 6.2
import PackageDescription

// The mutation runner (issue 31): tooling, not the product, so it is a package of its own and the
// product's build never compiles swift-syntax. `scripts/mutate` builds and runs it.
let package = Package(
  name: "mutate",
  platforms: [.macOS(.v14)],
  products: [.executable(name: "mutate", targets: ["mutate"])],
  dependencies: [
    // 603.0.1 is the swift-syntax of Swift 6.3 (the toolchain here, 6.3.1).
    .package(url: "https://github.com/swiftlang/swift-syntax", exact: "603.0.1")
  ],
  targets: [
    // Finding mutants, writing their schemata, reading the compiler's and the tests' verdicts,
    // the report: everything but running processes.
    .target(
      name: "MutateKit",
      dependencies: [
        .product(name: "SwiftSyntax", package: "swift-syntax"),
        .product(name: "SwiftParser", package: "swift-syntax"),
        .product(name: "SwiftOperators", package: "swift-syntax"),
      ],
      swiftSettings: [.treatAllWarnings(as: .error)]
    ),
    // Its check is the self-test on Fixture/ (scripts/mutate --self-test), run by .ci/run.
    .executableTarget(
      name: "mutate", dependencies: ["MutateKit"], swiftSettings: [.treatAllWarnings(as: .error)]),
  ]
)

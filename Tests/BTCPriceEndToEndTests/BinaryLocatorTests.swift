import BTCPriceCore
import BTCPriceRuntime
import BTCPriceTestSupport
import Foundation
import Testing

/// How the end-to-end tests find the binary they run, with real folders in a temporary place.
@Suite("Locate the built binary", .hangLimit(.seconds(30)))
struct BinaryLocatorTests {
  @Test func locate_prefersTheEnvironmentVariable() throws {
    try withTemporaryFolder { root in
      let explicit = try makeExecutable(root, "custom/btc-price")
      _ = try makeExecutable(root, "debug/btc-price")

      let url = try makeSUT(
        environment: ["BTC_PRICE_BINARY": explicit.path], startFolders: [root / "debug"]
      ).locate()

      #expect(resolved(url) == resolved(explicit))
    }
  }

  @Test func locate_failsOnAnEnvironmentVariableThatNamesNoExecutable() throws {
    try withTemporaryFolder { root in
      _ = try makeExecutable(root, "debug/btc-price")
      let wrong = (root / "nowhere/btc-price").path

      #expect(
        throws: BinaryLocator.NotFound(name: "btc-price", override: wrong, triedPaths: [wrong])
      ) {
        try makeSUT(environment: ["BTC_PRICE_BINARY": wrong], startFolders: [root / "debug"])
          .locate()
      }
    }
  }

  @Test func locate_ignoresAnEmptyEnvironmentVariable() throws {
    try withTemporaryFolder { root in
      let built = try makeExecutable(root, "debug/btc-price")

      let url = try makeSUT(environment: ["BTC_PRICE_BINARY": ""], startFolders: [root / "debug"])
        .locate()

      #expect(resolved(url) == resolved(built))
    }
  }

  /// macOS under `swift test`: the runner lives in the toolchain, the test bundle in the build
  /// folder next to the binary.
  @Test func locate_findsTheBinaryNextToTheTestBundle() throws {
    try withTemporaryFolder { root in
      let built = try makeExecutable(root, ".build/arm64-apple-macosx/debug/btc-price")
      let bundle = root / ".build/arm64-apple-macosx/debug/btc-pricePackageTests.xctest"
      try FileManager.default.createDirectory(
        at: bundle / "Contents/MacOS", withIntermediateDirectories: true)
      let toolchain = root / "Toolchains/swift.xctoolchain/usr/libexec/swift/pm"
      try FileManager.default.createDirectory(at: toolchain, withIntermediateDirectories: true)

      let url = try makeSUT(startFolders: [bundle, toolchain]).locate()

      #expect(resolved(url) == resolved(built))
    }
  }

  @Test func locate_skipsAFileThatIsNotExecutable() throws {
    try withTemporaryFolder { root in
      let inner = root / "a/b"
      try FileManager.default.createDirectory(at: inner, withIntermediateDirectories: true)
      try #require(
        FileManager.default.createFile(atPath: (inner / "btc-price").path, contents: nil))
      let built = try makeExecutable(root, "a/btc-price")

      let url = try makeSUT(startFolders: [inner]).locate()

      #expect(resolved(url) == resolved(built))
    }
  }

  @Test func locate_failsNamingEveryPathItTried() throws {
    try withTemporaryFolder { root in
      let first = root / "one/two"
      let second = root / "elsewhere"
      for folder in [first, second] {
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
      }
      let asked = Locked<[String]>([])
      let sut = BinaryLocator(
        environment: [:], startFolders: [first, second],
        isExecutable: {
          asked.append($0)
          return FileManager.default.isExecutableFile(atPath: $0)
        })

      let error = #expect(throws: BinaryLocator.NotFound.self) { try sut.locate() }

      let tried = error?.triedPaths ?? []
      #expect(tried == asked.value)
      let triedResolved = tried.map { resolved(URL(fileURLWithPath: $0)) }
      #expect(
        Array(triedResolved.prefix(3))
          == [first, root / "one", root].map { resolved($0 / "btc-price") })
      #expect(triedResolved.contains(resolved(second / "btc-price")))
      #expect(tried.contains("/btc-price"), "up to the root")
      #expect(Set(tried).count == tried.count, "the root's ancestors are shared; tried once")
      let message = error?.description ?? ""
      #expect(message.contains("BTC_PRICE_BINARY"))
      #expect(tried.allSatisfy { message.contains("\n  \($0)") })
    }
  }

  @Test func live_findsTheBinaryThisPackageBuilt() throws {
    let url = try BinaryProcess.binaryURL

    #expect(url.lastPathComponent == "btc-price")
    #expect(FileManager.default.isExecutableFile(atPath: url.path))
  }

  // MARK: - Helpers

  private func makeSUT(environment: [String: String] = [:], startFolders: [URL]) -> BinaryLocator {
    BinaryLocator(
      environment: environment, startFolders: startFolders,
      isExecutable: { FileManager.default.isExecutableFile(atPath: $0) })
  }

  private func makeExecutable(_ root: URL, _ relativePath: String) throws -> URL {
    let url = root / relativePath
    try FileManager.default.createDirectory(
      at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
    try #require(
      FileManager.default.createFile(
        atPath: url.path, contents: Data("#!/bin/sh\n".utf8),
        attributes: [.posixPermissions: 0o755]))
    return url
  }

  /// `url` with every symbolic link of its folders resolved, so paths compare equal however
  /// they were spelt: macOS's temporary folder is `/var/...`, a link to `/private/var/...`, and
  /// `standardizedFileURL` and `realpath` each pick one. The file itself need not exist.
  private func resolved(_ url: URL) -> String {
    var folder = url.standardizedFileURL
    var rest: [String] = []
    while !FileManager.default.fileExists(atPath: folder.path), folder.path != "/" {
      rest.insert(folder.lastPathComponent, at: 0)
      folder.deleteLastPathComponent()
    }
    guard let real = realpath(folder.path, nil) else { return url.path }
    defer { free(real) }
    let base = String(cString: real)
    return ([base == "/" ? "" : base] + rest).joined(separator: "/")
  }

  private func withTemporaryFolder(_ body: (URL) throws -> Void) throws {
    let root = FileManager.default.temporaryDirectory
      .appendingPathComponent("binary-locator-\(UUID().uuidString)").resolvingSymlinksInPath()
    try FileManager.default.createDirectory(at: root, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(at: root) }
    try body(root)
  }
}

extension URL {
  fileprivate static func / (folder: URL, path: String) -> URL {
    folder.appendingPathComponent(path)
  }
}

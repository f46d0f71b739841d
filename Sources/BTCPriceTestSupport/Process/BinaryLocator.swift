import Foundation

/// Finds the built `btc-price` executable for the end-to-end tests, on Linux and on macOS.
///
/// `$BTC_PRICE_BINARY` wins when set (CI sets it from `swift build --show-bin-path`); a path set
/// there that is not an executable is an error, never a reason to look elsewhere. Otherwise each
/// start folder and every folder above it is searched for the executable. The test bundle is the
/// start that matters on macOS: under `swift test` there, `Bundle.main` is a runner inside the
/// toolchain, while the `.xctest` bundle sits next to the binary in the build folder. On Linux the
/// test runner itself sits there, so `Bundle.main` finds it.
public struct BinaryLocator: Sendable {
  public static let environmentVariable = "BTC_PRICE_BINARY"

  /// No executable where we looked. The description names every path tried, so a failing run
  /// says where the binary was expected and how to point the tests at it.
  public struct NotFound: Error, Equatable, CustomStringConvertible {
    public let name: String
    /// The value of `$BTC_PRICE_BINARY`, when that is what failed.
    public let override: String?
    public let triedPaths: [String]

    public init(name: String, override: String?, triedPaths: [String]) {
      self.name = name
      self.override = override
      self.triedPaths = triedPaths
    }

    public var description: String {
      if let override {
        return "\(BinaryLocator.environmentVariable)=\(override) is not an executable file"
      }
      return """
        the \(name) executable was not found; build it first (swift build), or set \
        \(BinaryLocator.environmentVariable) to its path (swift build --show-bin-path names the \
        folder). Tried:
        """ + triedPaths.map { "\n  \($0)" }.joined()
    }
  }

  public let name: String
  private let environment: [String: String]
  private let startFolders: [URL]
  private let isExecutable: @Sendable (String) -> Bool

  /// - Parameters:
  ///   - startFolders: searched in order, each with every folder above it.
  ///   - isExecutable: whether a path names an executable file.
  public init(
    name: String = "btc-price",
    environment: [String: String],
    startFolders: [URL],
    isExecutable: @escaping @Sendable (String) -> Bool
  ) {
    self.name = name
    self.environment = environment
    self.startFolders = startFolders
    self.isExecutable = isExecutable
  }

  /// The lookup the end-to-end tests use: this process's environment and test bundle.
  public static var live: BinaryLocator {
    BinaryLocator(
      environment: ProcessInfo.processInfo.environment,
      startFolders: testBundleFolders(),
      isExecutable: { FileManager.default.isExecutableFile(atPath: $0) })
  }

  public func locate() throws(NotFound) -> URL {
    if let override = environment[Self.environmentVariable], !override.isEmpty {
      guard isExecutable(override) else {
        throw NotFound(name: name, override: override, triedPaths: [override])
      }
      return URL(fileURLWithPath: override)
    }
    var tried: [String] = []
    for start in startFolders {
      var folder = start.standardizedFileURL
      while true {
        let candidate = folder.appendingPathComponent(name).path
        if !tried.contains(candidate) {
          tried.append(candidate)
          if isExecutable(candidate) { return URL(fileURLWithPath: candidate) }
        }
        let parent = folder.deletingLastPathComponent().standardizedFileURL
        if parent.path == folder.path || folder.path == "/" { break }
        folder = parent
      }
    }
    throw NotFound(name: name, override: nil, triedPaths: tried)
  }

  /// The `.xctest` bundles loaded in this process, then the bundle holding this code, then the
  /// main bundle. Duplicates are searched once.
  private static func testBundleFolders() -> [URL] {
    let testBundles = Bundle.allBundles.filter { $0.bundleURL.pathExtension == "xctest" }
    let bundles = testBundles + [Bundle(for: BinaryProcess.self), Bundle.main]
    var seen: Set<String> = []
    return bundles.map(\.bundleURL).filter { seen.insert($0.standardizedFileURL.path).inserted }
  }
}

// Apple's Foundation API that our Darwin-only branches call and Linux's Foundation does not have,
// declared as Apple's documentation declares it (developer.apple.com/documentation/foundation).
// The Mac's view (scripts/check-darwin-view) imports this module into every target. Bodies are
// never run: only the signatures are read.
import Foundation

extension FileManager {
  /// `func containerURL(forSecurityApplicationGroupIdentifier groupIdentifier: String) -> URL?`,
  /// macOS 10.8, iOS 7.0
  public func containerURL(forSecurityApplicationGroupIdentifier groupIdentifier: String) -> URL? {
    fatalError("a stand-in of the Mac's view; never run")
  }
}

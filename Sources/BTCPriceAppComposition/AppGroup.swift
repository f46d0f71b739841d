import BTCPriceCore
import Foundation

/// The App Group the iPhone app and its widget share: the cache of the last price, the sources'
/// limits and the chosen currency live in its container, so the widget shows what the app last
/// saw, and neither hammers an exchange that banned the other.
///
/// The identifier must match the `com.apple.security.application-groups` entitlement of both
/// targets (App/iOS/project.yml; scripts/check-app-project checks they agree).
public enum AppGroup {
  public static let identifier = "group.dev.btcprice.BTCPrice"

  /// `<group container>/Library/Application Support/btc-price`, or nil where there is no
  /// container: Linux, or a build without the entitlement (the app then keeps its files in its
  /// own Application Support, and the widget finds no cache).
  public static func folderURL(fileManager: FileManager = .default) -> URL? {
    #if canImport(Darwin)
      // Apple's FileManager only: iOS 7 and macOS 10.8 have it; nil on iOS when the group is not
      // in the entitlements.
      return fileManager.containerURL(forSecurityApplicationGroupIdentifier: identifier)?
        .appendingPathComponent("Library", isDirectory: true)
        .appendingPathComponent("Application Support", isDirectory: true)
        .appendingPathComponent("btc-price", isDirectory: true)
    #else
      return nil
    #endif
  }

  /// `last-price.json` for US dollars, `last-price-eur.json` and so on for the others, as the
  /// terminal names them: each currency keeps its own last value, so switching back shows it at
  /// once.
  public static func cacheFileURL(in folder: URL, currency: Currency) -> URL {
    let name = currency == .usd ? "last-price" : "last-price-\(currency.code.lowercased())"
    return folder.appendingPathComponent("\(name).json")
  }

  /// `limits.json`: bans and refusals, kept across launches and shared with the widget.
  public static func limitsFileURL(in folder: URL) -> URL {
    folder.appendingPathComponent("limits.json")
  }

  /// The user defaults both targets read: the App Group's suite, else the app's own.
  /// PrivacyInfo.xcprivacy declares this use (NSPrivacyAccessedAPICategoryUserDefaults, 1C8F.1).
  public static var defaults: UserDefaults {
    UserDefaults(suiteName: identifier) ?? .standard
  }
}

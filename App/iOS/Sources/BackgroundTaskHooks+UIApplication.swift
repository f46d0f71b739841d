import BTCPriceFeature
import UIKit

extension BackgroundTaskHooks {
  /// UIApplication's background-task assertion: `beginBackgroundTask(withName:expirationHandler:)`
  /// and `endBackgroundTask(_:)` (iOS 4+). The system calls the expiration handler on the main
  /// thread shortly before the background time runs out.
  static let uiApplication = BackgroundTaskHooks(
    begin: { name, expired in
      let identifier = UIApplication.shared.beginBackgroundTask(withName: name) {
        MainActor.assumeIsolated { expired() }
      }
      return identifier == .invalid ? nil : identifier.rawValue
    },
    end: { identifier in
      UIApplication.shared.endBackgroundTask(UIBackgroundTaskIdentifier(rawValue: identifier))
    })
}

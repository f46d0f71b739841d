#if canImport(SwiftUI)
  import BTCPriceFeature
  import SwiftUI

  extension AppPhase {
    /// The SwiftUI scene phase as the view model understands it.
    public init(_ phase: ScenePhase) {
      switch phase {
      case .active: self = .active
      case .background: self = .background
      // Inactive, and any phase a later SDK adds: keep doing what we do.
      default: self = .inactive
      }
    }
  }
#endif

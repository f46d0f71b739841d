/// Where the app stands in its lifecycle, without naming any UI framework.
///
/// The SwiftUI layer maps `ScenePhase` onto this, so every lifecycle decision lives in code that
/// builds and is tested on Linux.
public enum AppPhase: Equatable, Sendable {
  /// On screen and in front: the price ticks.
  case active
  /// On screen but interrupted (Control Center, an incoming call): the price keeps ticking.
  case inactive
  /// Not visible: no tick runs; the last known value is saved on the way here if it was not yet.
  case background
}

import BTCPriceFeature
import BTCPriceTerminal
import Foundation

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// Writes each tick's state to stdout in the chosen mode; keeps the little state the terminal
/// views need between ticks (history, height of the panel on screen).
final class TerminalOutput: @unchecked Sendable {
  enum Mode: Equatable {
    case plain(colors: Bool)
    case json
    case live(colors: Bool)
  }

  let mode: Mode
  private let lock = NSLock()
  private var history = DisplayHistory()
  private var panelHeight = 0
  private var cursorHidden = false

  init(mode: Mode) {
    self.mode = mode
  }

  /// Picks the mode from the flags and what stdout is.
  static func mode(json: Bool, live: Bool, environment: [String: String]) -> Mode {
    let isTerminal = isatty(STDOUT_FILENO) == 1
    let colors = ColorPolicy.useColors(isTerminal: isTerminal, environment: environment)
    if json { return .json }
    if live {
      if isTerminal { return .live(colors: colors) }
      Console.note("--live needs a terminal; printing plain lines instead")
    }
    return .plain(colors: colors)
  }

  func begin() {
    guard case .live = mode else { return }
    lock.withLock { cursorHidden = true }
    Console.write(ANSIStyle.hideCursor)
  }

  func show(_ state: PriceViewState) {
    lock.withLock {
      history.record(state)
      switch mode {
      case .json:
        Console.print(JSONLineRenderer.render(state))
      case .plain(let colors):
        Console.print(
          PlainLineRenderer.render(state, change: history.changeSinceLastTick, colors: colors))
      case .live(let colors):
        let lines = LivePanelRenderer.render(
          state, history: history, width: Self.terminalWidth(), colors: colors)
        Console.write(LiveFrame.compose(lines, replacingHeight: panelHeight))
        panelHeight = lines.count
      }
    }
  }

  /// Gives the cursor back. Safe to call more than once and from a signal path.
  func end() {
    let restore = lock.withLock {
      defer { cursorHidden = false }
      return cursorHidden
    }
    if restore { Console.write(ANSIStyle.showCursor) }
  }

  private static func terminalWidth() -> Int {
    var size = winsize()
    if ioctl(STDOUT_FILENO, UInt(TIOCGWINSZ), &size) == 0, size.ws_col > 0 {
      return Int(size.ws_col)
    }
    return ProcessInfo.processInfo.environment["COLUMNS"].flatMap(Int.init) ?? 80
  }
}

import BTCPriceCore
import BTCPriceFeature

/// Writes each tick's state to the terminal in the chosen mode, and keeps the little state the
/// terminal views need between ticks: the price history and the height of the panel on screen.
///
/// The bytes go through an injected `write`, and the terminal's width comes from an injected
/// `width`, so every decision here is tested without a terminal.
public final class TerminalSession: Sendable {
  public enum Mode: Equatable, Sendable {
    case plain(colors: Bool)
    case json
    case live(colors: Bool)
  }

  private struct State {
    var history = PriceHistory()
    var panelHeight = 0
    var cursorHidden = false
  }

  public let mode: Mode
  private let presenter: PricePresenter
  private let write: @Sendable (String) -> Void
  private let width: @Sendable () -> Int
  private let state = Locked(State())

  /// - Parameters:
  ///   - write: puts bytes on stdout, all of them, at once.
  ///   - width: the terminal's width in columns now.
  public init(
    mode: Mode, presenter: PricePresenter, write: @escaping @Sendable (String) -> Void,
    width: @escaping @Sendable () -> Int
  ) {
    self.mode = mode
    self.presenter = presenter
    self.write = write
    self.width = width
  }

  /// The mode for the flags and what stdout is, and a note for stderr when `--live` cannot be
  /// honoured.
  public static func mode(
    json: Bool, live: Bool, isTerminal: Bool, environment: [String: String]
  ) -> (mode: Mode, note: String?) {
    let colors = ColorPolicy.useColors(isTerminal: isTerminal, environment: environment)
    if json { return (.json, nil) }
    if live {
      if isTerminal { return (.live(colors: colors), nil) }
      return (.plain(colors: colors), "--live needs a terminal; printing plain lines instead")
    }
    return (.plain(colors: colors), nil)
  }

  /// Hides the cursor while the live panel is up.
  public func begin() {
    guard case .live = mode else { return }
    state.withValue { $0.cursorHidden = true }
    write(ANSIStyle.hideCursor)
  }

  public func show(_ viewState: PriceViewState) {
    state.withValue { state in
      state.history.record(viewState)
      switch mode {
      case .json:
        write(JSONLineRenderer.render(viewState) + "\n")
      case .plain(let colors):
        write(
          PlainLineRenderer.render(
            viewState, change: state.history.changeSinceLastTick, colors: colors) + "\n")
      case .live(let colors):
        let lines = LivePanelRenderer.render(
          viewState, trend: presenter.presentTrend(state.history), width: width(),
          colors: colors)
        write(LiveFrame.compose(lines, replacingHeight: state.panelHeight))
        state.panelHeight = lines.count
      }
    }
  }

  /// Gives the cursor back. Safe to call more than once and from a signal path.
  public func end() {
    let restore = state.withValue { state in
      defer { state.cursorHidden = false }
      return state.cursorHidden
    }
    if restore { write(ANSIStyle.showCursor) }
  }
}

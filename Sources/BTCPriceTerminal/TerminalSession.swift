import BTCPriceCore
import BTCPriceFeature

#if canImport(Glibc)
  import Glibc
#elseif canImport(Musl)
  import Musl
#elseif canImport(Darwin)
  import Darwin
#endif

/// Why stdout can take no more output.
public enum TerminalOutputError: Error, Equatable, Sendable {
  /// Its reader is gone (EPIPE): `btc-price | head -3` after head has exited.
  case readerGone
  /// Any other write error, e.g. `No space left on device` for `> /dev/full`.
  case failed(String)
}

/// Writes each tick's state to the terminal in the chosen mode, and keeps the little state the
/// terminal views need between ticks: the price history, the last state and the height of the
/// live panel on screen.
///
/// The bytes go through injected writers, and the terminal's width comes from an injected
/// `width`, so every decision here is tested without a terminal.
///
/// All output is serialised by one lock, held while writing: a tick, a redraw after a resize and
/// a warning never interleave their escape sequences. Because a stalled reader (a paused pager,
/// Ctrl-S) can block a write for ever, what a signal handler calls never waits for that lock
/// without a time limit (see ``restoreTerminal(waitingAtMost:)``).
public final class TerminalSession: Sendable {
  public enum Mode: Equatable, Sendable {
    case plain(colors: Bool)
    /// `--format`: plain lines shaped by the user.
    case template(PriceTemplate, colors: Bool)
    case json
    /// `--waybar`: Waybar's custom-module JSON, its text shaped by `--format` when given.
    case waybar(PriceTemplate?)
    case live(colors: Bool)
  }

  private struct State {
    var history = PriceHistory()
    var last: PriceViewState?
    /// The run's last alert, which the live panel keeps showing.
    var lastAlert: AlertViewState?
    /// The live panel's lines as they are on screen now, to move back over them.
    var panel: [String] = []
    var cursorHidden = false
  }

  public let mode: Mode
  private let presenter: PricePresenter
  private let write: @Sendable (String) throws(TerminalOutputError) -> Void
  private let writeDiagnostic: @Sendable (String) -> Void
  private let width: @Sendable () -> Int
  private let state = Locked(State())

  /// - Parameters:
  ///   - write: puts bytes on stdout, all of them, or says why it cannot.
  ///   - writeDiagnostic: puts a warning or log line on stderr, best effort.
  ///   - width: the terminal's width in columns now.
  public init(
    mode: Mode, presenter: PricePresenter,
    write: @escaping @Sendable (String) throws(TerminalOutputError) -> Void,
    writeDiagnostic: @escaping @Sendable (String) -> Void = { _ in },
    width: @escaping @Sendable () -> Int
  ) {
    self.mode = mode
    self.presenter = presenter
    self.write = write
    self.writeDiagnostic = writeDiagnostic
    self.width = width
  }

  /// The mode for the flags and what stdout is, and a note for stderr when `--live` cannot be
  /// honoured. (`--json`, `--live` and `--waybar` exclude each other; the command checks.)
  public static func mode(
    json: Bool = false, live: Bool = false, waybar: Bool = false, template: PriceTemplate? = nil,
    isTerminal: Bool, environment: [String: String]
  ) -> (mode: Mode, note: String?) {
    let colors = ColorPolicy.useColors(isTerminal: isTerminal, environment: environment)
    if json { return (.json, nil) }
    if waybar { return (.waybar(template), nil) }
    if let template { return (.template(template, colors: colors), nil) }
    if live {
      if isTerminal { return (.live(colors: colors), nil) }
      return (.plain(colors: colors), "--live needs a terminal; printing plain lines instead")
    }
    return (.plain(colors: colors), nil)
  }

  private var isLive: Bool {
    if case .live = mode { return true }
    return false
  }

  /// Hides the cursor while the live panel is up.
  public func begin() throws(TerminalOutputError) {
    guard isLive else { return }
    try withState { state throws(TerminalOutputError) in
      state.cursorHidden = true
      try write(ANSIStyle.hideCursor)
    }
  }

  /// - Parameter reason: why no source gives a price (``OutageNotice/reason``), for `--json`.
  public func show(_ viewState: PriceViewState, reason: String? = nil) throws(TerminalOutputError) {
    try withState { state throws(TerminalOutputError) in
      state.history.record(viewState)
      state.last = viewState
      switch mode {
      case .json:
        try write(JSONLineRenderer.render(viewState, reason: reason) + "\n")
      case .plain(let colors):
        // Without colours the line shows no movement, and working it out (a division and the
        // words for it) was most of a tick's own work (docs/PERFORMANCE.md, "Streams").
        try write(
          PlainLineRenderer.render(
            viewState, change: colors ? movement(state) : nil, colors: colors) + "\n")
      case .template(let template, let colors):
        try write(template.render(viewState, change: movement(state), colors: colors) + "\n")
      case .waybar(let template):
        try write(
          WaybarRenderer.render(viewState, change: movement(state), template: template) + "\n")
      case .live:
        // The panel keeps the run's last alert; the tick that fired it rings the bell once.
        state.lastAlert = viewState.alert ?? state.lastAlert
        state.last?.alert = state.lastAlert
        if viewState.alert != nil { try write(ANSIStyle.bell) }
        try redraw(&state, over: state.panel.count)
      }
    }
  }

  /// A warning or a log line. In the live panel it goes above the panel, which is drawn again
  /// below it, so it never shifts the panel or leaves a stale line behind.
  public func diagnostic(_ line: String) {
    guard isLive else { return writeDiagnostic(line) }
    try? withState { state throws(TerminalOutputError) in
      guard !state.panel.isEmpty else { return writeDiagnostic(line) }
      try write(LiveFrame.erase(height: state.panel.count))
      state.panel = []
      writeDiagnostic(line)
      try redraw(&state, over: 0)
    }
  }

  /// The terminal changed its width: the panel is laid out again at once, not at the next tick.
  /// A terminal that reflows lines as it narrows may have wrapped the old panel's lines, so the
  /// redraw moves back over as many rows as they take now.
  public func terminalResized() throws(TerminalOutputError) {
    guard isLive else { return }
    try withState { state throws(TerminalOutputError) in
      guard state.last != nil else { return }
      let columns = max(width(), 1)
      let rows = state.panel.reduce(0) { rows, line in
        rows + max(1, (ANSIStyle.visible(line).count + columns - 1) / columns)
      }
      try redraw(&state, over: rows)
    }
  }

  /// Ctrl-Z: gives the cursor back before the process stops, and forgets the panel's place, so
  /// that whatever the shell prints meanwhile is never drawn over.
  public func suspend(waitingAtMost attempts: Int = 100) {
    guard isLive else { return }
    _ = state.withValue(waitingAtMost: attempts) { state in
      if state.cursorHidden { try? write(ANSIStyle.reset + ANSIStyle.showCursor) }
      state.panel = []
    }
  }

  /// `fg` (SIGCONT): hides the cursor again and draws the panel afresh below the prompt.
  public func resume() throws(TerminalOutputError) {
    guard isLive else { return }
    try withState { state throws(TerminalOutputError) in
      guard state.cursorHidden else { return }
      try write(ANSIStyle.hideCursor)
      try redraw(&state, over: 0)
    }
  }

  /// Gives the cursor back. Safe to call more than once.
  public func end() throws(TerminalOutputError) {
    try withState { state throws(TerminalOutputError) in
      guard state.cursorHidden else { return }
      state.cursorHidden = false
      try write(ANSIStyle.showCursor)
    }
  }

  /// Gives the cursor back on a way out that cannot wait: a second Ctrl-C, or a shutdown that
  /// took too long because stdout is blocked. Gives up after `attempts` tries of the lock (about
  /// a millisecond apart); the caller must not wait on the write itself either.
  public func restoreTerminal(waitingAtMost attempts: Int) {
    guard isLive else { return }
    _ = state.withValue(waitingAtMost: attempts) { state in
      guard state.cursorHidden else { return }
      state.cursorHidden = false
      try? write(ANSIStyle.showCursor)
    }
  }

  /// The change since the last tick, as the presenter words it.
  private func movement(_ state: State) -> PriceTrendViewState.Change? {
    state.history.changeSinceLastTick.map(presenter.presentChange)
  }

  private func redraw(_ state: inout State, over rows: Int) throws(TerminalOutputError) {
    guard case .live(let colors) = mode, let last = state.last else { return }
    let lines = LivePanelRenderer.render(
      last, trend: presenter.presentTrend(state.history), width: width(), colors: colors)
    try write(LiveFrame.compose(lines, replacingHeight: rows))
    state.panel = lines
  }

  private func withState(_ body: (inout State) throws(TerminalOutputError) -> Void)
    throws(TerminalOutputError)
  {
    let failure = state.withValue { state -> TerminalOutputError? in
      do throws(TerminalOutputError) {
        try body(&state)
        return nil
      } catch {
        return error
      }
    }
    if let failure { throw failure }
  }
}

extension Locked {
  /// Runs `body` once the lock is free, trying `attempts` times about a millisecond apart; nil
  /// when it never was (its holder is stuck, e.g. in a write to a stalled terminal).
  fileprivate func withValue<Result>(waitingAtMost attempts: Int, _ body: (inout Value) -> Result)
    -> Result?
  {
    for attempt in 0..<max(attempts, 1) {
      if let result = withValueIfAvailable(body) { return result }
      if attempt + 1 < attempts { Self.pause() }
    }
    return nil
  }

  private static func pause() {
    var interval = timespec(tv_sec: 0, tv_nsec: 1_000_000)
    nanosleep(&interval, nil)
  }
}

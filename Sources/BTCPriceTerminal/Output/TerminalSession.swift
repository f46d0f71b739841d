import BTCPriceCore
import BTCPriceFeature
import BTCPriceRuntime

#if canImport(Glibc)
  import Glibc
#elseif canImport(Musl)
  import Musl
#elseif canImport(Darwin)
  import Darwin
#endif

extension TerminalSession.Mode {
  /// How this mode's output waits while stdout's reader is away (README, "Output"):
  /// - plain and `--format` lines, the newest 1,000 (about 17 minutes at one a second): a person
  ///   coming back to a paused pager wants what is recent, and is told what was left out;
  /// - `--json` lines, the newest 10,000 (about 1.5 MB): a program reading them may want every
  ///   record, and one that stalls for minutes loses none;
  /// - the live panel and Waybar, only the newest frame: each replaces the one before, and the
  ///   session holds the next back until the output has caught up.
  public var stdoutKind: OutputQueue.Kind {
    switch self {
    case .plain, .template: .line(keepingNewest: 1_000)
    case .json: .line(keepingNewest: 10_000)
    case .waybar, .live: .whole
    }
  }
}

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
/// All output is serialised by one lock: a tick, a redraw after a resize and a warning never
/// interleave their escape sequences. The writers it is given only queue (``TerminalWriter``
/// writes on a thread of its own), so the lock is never held across a write that a stalled
/// reader (a paused pager, Ctrl-S) blocks, and the event loop that shows a tick never waits.
/// What waits while a reader is away is decided per mode (``Mode/stdoutKind``): the lines of a
/// log wait, up to a bound; the live panel and Waybar hold back their frames while the output is
/// behind (`outputIsBehind`) and draw the newest once it has caught up (``outputCaughtUp()``).
/// With a writer that blocks after all, what a signal handler calls never waits for the lock
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

    /// Whether this output shows the 24-hour change: only then does a run's first tick wait
    /// (a bounded moment) for the price history. A plain line never shows it, so a status bar's
    /// `--once` is never held up by a slow candle endpoint.
    public var showsTheDaysChange: Bool {
      switch self {
      case .plain: false
      case .template(let template, _): template.showsTheDaysChange
      case .json, .live: true
      case .waybar(let template): template?.showsTheDaysChange ?? false
      }
    }

    /// The ranges whose history this output shows a change of: `--json` every period's
    /// (`changes`), `--live` the day's, a template or Waybar text those of its placeholders, a
    /// plain line none. A run asks for these ranges' candles and no others.
    public var rangesShown: Set<ChartRange> {
      switch self {
      case .plain: []
      case .template(let template, _): Set(template.periodsShown.map(\.range))
      case .json: Set(ChangePeriod.allCases.map(\.range))
      case .live: [.day]
      case .waybar(let template): Set((template?.periodsShown ?? []).map(\.range))
      }
    }
  }

  private struct State {
    var history = PriceHistory()
    var last: PriceViewState?
    /// The run's last alert, which the live panel keeps showing.
    var lastAlert: AlertViewState?
    /// The live panel's lines as they are on screen now, to move back over them.
    var panel: [String] = []
    /// The last tick's chart of the day, for the live panel.
    var chart: ChartViewState?
    var cursorHidden = false
    /// The live panel or Waybar held back a frame while the output was behind.
    var owed = false
    /// And an alert's bell with it.
    var bellOwed = false
  }

  public let mode: Mode
  private let presenter: PricePresenter
  private let write: @Sendable (String) throws(TerminalOutputError) -> Void
  private let writeDiagnostic: @Sendable (String) -> Void
  private let width: @Sendable () -> Int
  private let outputIsBehind: @Sendable () -> Bool
  private let height: @Sendable () -> Int?
  private let state = Locked(State())

  /// - Parameters:
  ///   - write: puts bytes on stdout, all of them, or says why it cannot. It must not wait for
  ///     the reader: ``TerminalWriter/write(_:to:as:)`` with ``Mode/stdoutKind``.
  ///   - writeDiagnostic: puts a warning or log line on stderr, best effort, without waiting.
  ///   - outputIsBehind: whether what was written has not all reached stdout yet
  ///     (``TerminalWriter/isBehind``); the live panel and Waybar then hold their frame back.
  ///   - width: the terminal's width in columns now.
  ///   - height: its height in rows now, nil when not known: the live panel shows the day's
  ///     chart only where it fits.
  public init(
    mode: Mode, presenter: PricePresenter,
    write: @escaping @Sendable (String) throws(TerminalOutputError) -> Void,
    writeDiagnostic: @escaping @Sendable (String) -> Void = { _ in },
    outputIsBehind: @escaping @Sendable () -> Bool = { false },
    width: @escaping @Sendable () -> Int, height: @escaping @Sendable () -> Int? = { nil }
  ) {
    self.mode = mode
    self.presenter = presenter
    self.write = write
    self.writeDiagnostic = writeDiagnostic
    self.outputIsBehind = outputIsBehind
    self.width = width
    self.height = height
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

  /// - Parameters:
  ///   - reason: why no source gives a price (``OutageNotice/reason``), for `--json`.
  ///   - chart: the day's chart, which the live panel shows where the terminal is tall enough.
  public func show(
    _ viewState: PriceViewState, reason: String? = nil, chart: ChartViewState? = nil
  ) throws(TerminalOutputError) {
    try withState { state throws(TerminalOutputError) in
      state.chart = chart
      state.history.record(viewState)
      state.last = viewState
      switch mode {
      case .json:
        try write(JSONLineRenderer.render(viewState, reason: reason) + "\n")
      case .plain(let colors):
        // Without colours the line shows no movement, so none is worked out: the division and
        // its words would be most of a tick's own work (docs/PERFORMANCE.md, "What we own in a
        // tick").
        try write(
          PlainLineRenderer.render(
            viewState, change: colors ? movement(state) : nil, colors: colors) + "\n")
      case .template(let template, let colors):
        try write(template.render(viewState, change: movement(state), colors: colors) + "\n")
      case .waybar(let template):
        // A status bar shows a state, not a log: while its reader is behind, only the newest
        // is worth writing.
        guard drawOrOwe(&state) else { return }
        try write(
          WaybarRenderer.render(viewState, change: movement(state), template: template) + "\n")
      case .live:
        // The panel keeps the run's last alert; the tick that fired it rings the bell once.
        state.lastAlert = viewState.alert ?? state.lastAlert
        state.last?.alert = state.lastAlert
        state.bellOwed = state.bellOwed || viewState.alert != nil
        guard drawOrOwe(&state) else { return }
        try redraw(&state, over: state.panel.count)
      }
    }
  }

  /// The output caught up with everything handed over: draws the newest frame held back
  /// meanwhile, if any. Called on the writer's thread (``TerminalWriter/whenCaughtUp(_:)``).
  public func outputCaughtUp() {
    // Only the live panel and Waybar hold a frame back. In the other modes there is nothing to
    // draw, and the writer says so right after writing the line of a tick that may still be
    // showing it under the lock: waiting for that lock woke the writer's thread once more.
    switch mode {
    case .live, .waybar: break
    case .plain, .template, .json: return
    }
    try? withState { state throws(TerminalOutputError) in
      try drawOwedFrame(&state)
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
      guard drawOrOwe(&state) else { return }
      try redraw(&state, over: 0)
    }
  }

  /// The terminal changed its width: the panel is laid out again at once, not at the next tick.
  /// A terminal that reflows lines as it narrows may have wrapped the old panel's lines, so the
  /// redraw moves back over as many rows as they take now.
  public func terminalResized() throws(TerminalOutputError) {
    guard isLive else { return }
    try withState { state throws(TerminalOutputError) in
      guard state.last != nil, drawOrOwe(&state) else { return }
      try redraw(&state, over: rowsOnScreen(state.panel))
    }
  }

  /// Ctrl-Z: gives the cursor back before the process stops, and forgets the panel's place, so
  /// that whatever the shell prints meanwhile is never drawn over.
  public func suspend(waitingAtMost attempts: Int = 100) {
    guard isLive else { return }
    _ = state.withValue(waitingAtMost: attempts) { state in
      if state.cursorHidden { try? write(ANSIStyle.reset + ANSIStyle.showCursor) }
      state.panel = []
      state.owed = false
    }
  }

  /// `fg` (SIGCONT): hides the cursor again and draws the panel afresh below the prompt.
  public func resume() throws(TerminalOutputError) {
    guard isLive else { return }
    try withState { state throws(TerminalOutputError) in
      guard state.cursorHidden else { return }
      try write(ANSIStyle.hideCursor)
      guard drawOrOwe(&state) else { return }
      try redraw(&state, over: 0)
    }
  }

  /// Draws the frame held back, if any, and gives the cursor back. Safe to call more than once.
  public func end() throws(TerminalOutputError) {
    try withState { state throws(TerminalOutputError) in
      try drawOwedFrame(&state)
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

  /// Whether a frame may be drawn now; false, and the frame owed, while the output is behind.
  private func drawOrOwe(_ state: inout State) -> Bool {
    guard outputIsBehind() else { return true }
    state.owed = true
    return false
  }

  private func drawOwedFrame(_ state: inout State) throws(TerminalOutputError) {
    guard state.owed else { return }
    state.owed = false
    switch mode {
    case .waybar(let template):
      guard let last = state.last else { return }
      try write(WaybarRenderer.render(last, change: movement(state), template: template) + "\n")
    case .live:
      // The terminal may have been resized meanwhile: move back over as many rows as the panel
      // on screen takes now.
      try redraw(&state, over: rowsOnScreen(state.panel))
    default:
      break
    }
  }

  /// The rows `panel` takes on screen at the terminal's width now: a terminal that reflows
  /// lines as it narrows wraps lines wider than itself.
  private func rowsOnScreen(_ panel: [String]) -> Int {
    let columns = max(width(), 1)
    return panel.reduce(0) { rows, line in
      rows + max(1, (ANSIStyle.visible(line).count + columns - 1) / columns)
    }
  }

  private func redraw(_ state: inout State, over rows: Int) throws(TerminalOutputError) {
    guard case .live(let colors) = mode, let last = state.last else { return }
    if state.bellOwed {
      state.bellOwed = false
      try write(ANSIStyle.bell)
    }
    let lines = LivePanelRenderer.render(
      last, trend: presenter.presentTrend(state.history), width: width(), colors: colors,
      chart: state.chart, height: height())
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

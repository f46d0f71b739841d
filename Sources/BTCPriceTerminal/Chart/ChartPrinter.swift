import BTCPriceCore
import BTCPriceFeature

#if canImport(FoundationEssentials)
  import FoundationEssentials
#else
  import Foundation
#endif

/// One chart of a range printed and done, for `btc-price chart [--range 24h|7d|30d]`: the
/// history is fetched unless the one kept is younger than its refresh interval (a status bar
/// that prints the chart every few seconds asks the exchanges four times an hour at most), then
/// drawn once, and the exit status says whether it is up to date, as `--once`'s does.
public enum ChartPrinter {
  /// What the chart fills when stdout is not a terminal and has no size of its own.
  public static let pipeSize = (width: 80, height: 12)
  /// The most lines a printed chart takes, however tall the terminal: a chart is read at a
  /// glance, and the prompt and what was printed before stay on screen.
  public static let maximumHeight = 20

  /// The chart's size in a terminal of `columns` × `rows` (nil: not known, e.g. a pipe without
  /// `$COLUMNS` or `$LINES`): the whole width, and the height less the prompt's line, at most
  /// ``maximumHeight``; ``pipeSize`` where the terminal does not say.
  public static func size(columns: Int?, rows: Int?) -> (width: Int, height: Int) {
    let width = columns.flatMap { $0 > 0 ? $0 : nil } ?? pipeSize.width
    let height = rows.flatMap { $0 > 0 ? min($0 - 1, maximumHeight) : nil } ?? pipeSize.height
    return (width, height)
  }

  /// Prints the chart of `range` through `write` (one call per line, without the newline) and
  /// any problem through `warn`.
  ///
  /// - Parameters:
  ///   - current: the last price known (the price cache), which the chart ends at when it is
  ///     newer than the history; nil ends it at the history's own last price.
  /// - Returns: 0 when the chart is up to date (fetched now, or young enough not to be), 1 when
  ///   the exchanges could not be asked (the kept history is drawn with its age), nothing is
  ///   known, or the size leaves no room for a chart (nothing is drawn; `warn` says why).
  /// - Throws: only `CancellationError`.
  public static func run(
    _ range: ChartRange, history: CandleHistory, presenter: ChartPresenter,
    current: PriceQuote?, width: Int, height: Int, glyphs: ChartRenderer.Glyphs, colors: Bool,
    now: @Sendable () -> Date, write: (String) -> Void, warn: (String) -> Void
  ) async throws -> Int32 {
    let refresh = try await history.refreshIfDue(range)
    // A price newer than the history extends it, as a live tick would.
    let newer = current.flatMap { quote in
      history.series(range).flatMap { quote.timestamp > $0.fetchedAt ? quote : nil }
    }
    if let newer { history.record(newer) }
    let series = history.series(range)
    let notUpdated = if case .failed = refresh { true } else { false }
    guard
      let chart = presenter.present(
        series, range: range, current: newer, dayHistory: history.series(.day), now: now(),
        notUpdated: notUpdated)
    else {
      return unavailable(range, after: refresh, presenter: presenter, warn: warn)
    }
    let status = series.map { kept($0, after: refresh, presenter: presenter, warn: warn) } ?? 0
    let lines = ChartRenderer.render(
      chart, width: width, height: height, glyphs: glyphs, colors: colors)
    // A terminal too small for any chart: said, not an empty success.
    guard !lines.isEmpty else {
      warn(
        presenter.presentNoRoom(
          columns: width, lines: height,
          needs: (ChartRenderer.minimumPlotWidth, ChartRenderer.minimumHeight)))
      return 1
    }
    for line in lines { write(line) }
    return status
  }

  /// `chart --json` and `--csv`: prints the candles of `range` through `write` (one call per
  /// line, without the newline), fetched first unless young enough, and any problem through
  /// `warn`.
  ///
  /// - Returns: 0 when the candles are up to date; 1 when the exchanges could not be asked (the
  ///   kept ones are printed, and `warn` says as of when) or nothing is known: the chart's
  ///   statuses.
  /// - Throws: only `CancellationError`.
  public static func export(
    _ range: ChartRange, history: CandleHistory, format: CandleExport.Format,
    presenter: ChartPresenter, write: (String) -> Void, warn: (String) -> Void
  ) async throws -> Int32 {
    let refresh = try await history.refreshIfDue(range)
    guard let series = history.series(range), series.currency == presenter.currency else {
      return unavailable(range, after: refresh, presenter: presenter, warn: warn)
    }
    let status = kept(series, after: refresh, presenter: presenter, warn: warn)
    for line in CandleExport.lines(CandleExport.candles(of: series, in: range), format: format) {
      write(line)
    }
    return status
  }

  /// Nothing of `range` is known: said, with why the refresh failed when it did; status 1.
  private static func unavailable(
    _ range: ChartRange, after refresh: CandleHistory.Refresh, presenter: ChartPresenter,
    warn: (String) -> Void
  ) -> Int32 {
    if case .failed(let failure) = refresh {
      warn(presenter.presentUnavailable(range, failure: failure))
    } else {
      warn(presenter.presentUnavailable(range))
    }
    return 1
  }

  /// The status of printing `series` as kept: 1, with as of when, when the refresh failed;
  /// else 0.
  private static func kept(
    _ series: CandleSeries, after refresh: CandleHistory.Refresh, presenter: ChartPresenter,
    warn: (String) -> Void
  ) -> Int32 {
    guard case .failed(let failure) = refresh else { return 0 }
    warn(presenter.presentKeptHistory(after: failure, fetchedAt: series.fetchedAt))
    return 1
  }
}

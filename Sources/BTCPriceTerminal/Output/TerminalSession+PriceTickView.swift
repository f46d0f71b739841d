import BTCPriceFeature

/// The terminal's view of the ticks: each tick in the session's mode on stdout (`--json`'s stale
/// lines with the outage's reason), the loop's notices as warnings on stderr (above the live
/// panel).
extension TerminalSession: PriceTickView {
  public func notice(_ line: String) {
    diagnostic(WarningLine.format(line))
  }

  public func show(_ tick: PriceTick) throws(TerminalOutputError) {
    try show(tick.state, reason: tick.outageReason, chart: tick.chart)
  }
}

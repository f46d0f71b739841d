import BTCPriceCore
import BTCPriceFeature
import BTCPricePipeline
import BTCPriceSources
import BTCPriceTerminal

/// The `--verbose` words for what the streams did: each connection's life, and where each tick's
/// price came from.
public enum StreamLine {
  /// The one stderr line, also without `--verbose`, for a stream the exchange refused with a
  /// limit that rests only the stream (403, 429): the run goes on over REST, and a user behind a
  /// firewall that blocks WebSockets should know why. A 451 or 418 also rests REST, whose
  /// refusal warning (with its advice) already says so.
  public static func warning(_ report: PricePipeline.StreamReport) -> String? {
    guard case .connection(.resting(let source, let wait, let cause)) = report,
      !StreamRefusal.limitsREST(cause)
    else { return nil }
    return "the \(source.id) stream was refused (\(cause)); not opening it again for "
      + "\(wait.humanText), prices come over REST meanwhile (btc-price doctor says more)"
  }

  public static func text(_ report: PricePipeline.StreamReport) -> (
    level: SourceReport.Level, text: String
  )? {
    switch report {
    case .connection(.connecting(let source, let url)):
      (.debug, "\(source.id) stream: connecting to \(url.absoluteString)")
    case .connection(.connected(let source)):
      (.info, "\(source.id) stream: connected")
    case .connection(.closed(let source, let error)):
      (.notice, "\(source.id) stream: closed, \(error)")
    case .connection(.backingOff(let source, let delay)):
      (.info, "\(source.id) stream: reconnecting in \(delay.humanText)")
    case .connection(.resting(let source, let wait, let cause)):
      (.notice, "\(source.id) stream: refused (\(cause)); not reconnecting for \(wait.humanText)")
    case .connection(.handingOver(let source)):
      (.info, "\(source.id) stream: handing over to a new connection")
    case .connection(.standingIn(let source, let rested)):
      (
        .notice,
        "\(source.id) stream: standing in while \(rested.map(\.id).joined(separator: " and "))"
          + " rests, so two streams still check each other"
      )
    case .connection(.standingDown(let source)):
      (.info, "\(source.id) stream: closed, the stream it stood in for delivers again")
    case .tick(.fellBackToREST(let silent)):
      (
        .notice,
        "no stream alive (\(silent.map(\.id).joined(separator: ", ")) silent or down): "
          + "falling back to REST"
      )
    case .tick(.usedNextStream(let used, let primary)):
      // Silent, closed, not yet connected or resting after a refusal: the other lines say which.
      (.notice, "no fresh price from the \(primary.id) stream: price from the \(used.id) stream")
    case .tick(.crossCheck(let outcome)):
      (.notice, CrossCheckNotice.verboseText(outcome))
    case .tick(.heldBack(let source)):
      (
        .notice,
        "\(source.id) stream held back: two sources outvoted it and no other stream is alive "
          + "to check it"
      )
    case .tick(.trustedAgain(let source)):
      (.info, "\(source.id) stream agrees with another source again: its price may be shown")
    case .tick(.priceFrom(.stream(let source), let quote)):
      (.debug, "price \(quote.value) from the \(source.id) stream")
    case .tick(.priceFrom(.rest, let quote)):
      (.debug, "price \(quote.value) from \(quote.source.id) over REST")
    }
  }
}

import BTCPriceCore
import BTCPriceNetworking
import BTCPriceTerminal

/// The `--verbose` words for what the streams did: each connection's life, and where each tick's
/// price came from.
enum StreamLine {
  static func text(_ report: PricePipeline.StreamReport) -> (
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
    case .tick(.fellBackToREST(let silent)):
      (
        .notice,
        "no stream alive (\(silent.map(\.id).joined(separator: ", ")) silent): "
          + "falling back to REST"
      )
    case .tick(.usedNextStream(let used, let primary)):
      (.notice, "\(primary.id) stream silent: price from the \(used.id) stream")
    case .tick(.crossCheck(let outcome)):
      (.notice, "streams disagree: \(outcome)")
    case .priceFrom(.stream(let source), let quote):
      (.debug, "price \(quote.value) from the \(source.id) stream")
    case .priceFrom(.rest, let quote):
      (.debug, "price \(quote.value) from \(quote.source.id) over REST")
    }
  }
}

/// Whether a source is asked (closed), left alone (open), or asked once to see if it is back
/// (half-open).
public enum CircuitPhase: Equatable, Sendable, CustomStringConvertible {
  case closed
  case open
  case halfOpen

  public var description: String {
    switch self {
    case .closed: "closed"
    case .open: "open"
    case .halfOpen: "half-open"
    }
  }
}

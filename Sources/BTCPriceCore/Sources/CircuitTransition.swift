/// A change of a source's circuit, for logs and advice.
public struct CircuitTransition: Equatable, Sendable {
  public let from: CircuitPhase
  public let to: CircuitPhase
  /// How long the source is left alone; set when the circuit opens.
  public let coolDown: Duration?
  /// The failure that opened the circuit.
  public let cause: PriceSourceError?

  public init(
    from: CircuitPhase, to: CircuitPhase, coolDown: Duration? = nil,
    cause: PriceSourceError? = nil
  ) {
    self.from = from
    self.to = to
    self.coolDown = coolDown
    self.cause = cause
  }
}

/// The fake exchange could not start.
public enum FakeExchangeError: Error {
  case didNotStart
}

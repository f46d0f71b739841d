/// How long `serve` takes to end after SIGINT or SIGTERM: the README promises within a second.
///
/// The ticker stops first, which ends every stream; then the HTTP server, which then has no
/// request in progress and closes its connections at once. If that has not happened within
/// ``gracefulShutdown``, the services are cancelled, and given ``cancellation`` more; the signal
/// trap's hard exit, which writes the cache first, comes at ``signalGrace``, still within the
/// second.
public enum ServeShutdown {
  public static let gracefulShutdown = Duration.milliseconds(600)
  public static let cancellation = Duration.milliseconds(200)
  public static let signalGrace = Duration.milliseconds(900)
}

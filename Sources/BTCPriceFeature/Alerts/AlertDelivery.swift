/// Where a tick's alerts go besides the views: a command, a desktop notification, a webhook.
/// ``PriceTickLoop`` hands each delivery the alerts of the tick that fired them, before the views
/// show the tick; a delivery starts its work and returns at once, never making the tick wait.
public protocol AlertDelivery: Sendable {
  func deliver(_ alerts: AlertViewState)
}

import BTCPriceSources

/// The words of `btc-price --help` below the options: what the output is, the files, the
/// settings keys, the environment, the exit statuses, the currencies and examples. Here, not in
/// the executable, which only parses (docs/ARCHITECTURE.md, "The rules the code follows"); the
/// man page is made from the same text.
public enum RootHelp {
  public static let discussion = """
    SOURCES (--sources): asked in order until one gives a valid price; default \
    \(PriceSourceRegistry.all.map(\.source.id).joined(separator: ", ")). Streams first where \
    a source has one, REST as the safety net. Back-off, bans and rate limits: docs/SOURCES.md.

    OUTPUT: one line per tick on stdout; warnings on stderr.
      <time> - <price>                 Nov 22, 14:03:05 - $68,901.23
      Failed to update value. Displaying last updated value from <time> - <price>
      <time>  local, MMM d, HH:mm:ss      <price>  $68,901.23 in every locale
      "-" for both while no price is known.

    JSON (--json), keys in this order:
      timestamp  ISO 8601, UTC            price     exact decimal, a string
      currency   e.g. "USD"               source    the source that delivered it
      stale      true when the tick failed (then the last known value, or nulls)
      error      when stale: the reason   alerts    when an alert fired
      change24h  {absolute, percent, since}: exact, against the price 24 h before;
                 left out while the price history cannot say (docs/HISTORY.md)
      changes    {1h, 24h, 7d, 30d}, each as change24h; a period left out likewise
      satsPerUnit  satoshis one unit of the currency buys, e.g. "1451"
      holdings   with --holdings: {amount, value, change24h, pnl}, exact

    ALERT COMMANDS (--on-alert) get BTC_PRICE_ALERT_RULE, _PRICE, _CURRENCY, \
    _TIME, _SOURCE, _DIRECTION and _TEXT, and are ended after 10 s.

    FILES (the folders default to ~/.cache, ~/.local/state and ~/.config; the state to
      ~/Library/Application Support on macOS when XDG_STATE_HOME is unset):
      $XDG_CACHE_HOME/btc-price/last-price.json   the last good price
      $XDG_STATE_HOME/btc-price/limits.json       bans and rate limits
      $XDG_STATE_HOME/btc-price/alerts.json       where each alert rule stands
      $XDG_CONFIG_HOME/btc-price/config           settings, YAML (or --config)

    SETTINGS keys (the command line wins, then the environment, then the file): sources, \
    currency, interval, primary-timeout, format, <source>-url, \(apiKeySettings)cache-path, \
    proxy, no-proxy, ca-file, alert (a list), on-alert, alert-webhook, history, \
    <source>-candles-url, holdings, cost-basis.

    ENVIRONMENT:
      BTC_PRICE_SOURCES            default for --sources
      BTC_PRICE_<NAME>_URL         default for --<name>-url
    \(apiKeyVariables)
      BTC_PRICE_CURRENCY           default for --currency
      BTC_PRICE_ALERTS             default for --alert (comma-separated)
      BTC_PRICE_ON_ALERT           default for --on-alert
      BTC_PRICE_ALERT_WEBHOOK      default for serve's --alert-webhook
      BTC_PRICE_HISTORY            false for --no-history
      BTC_PRICE_HOLDINGS           default for --holdings
      BTC_PRICE_COST_BASIS         default for --cost-basis
      XDG_CACHE_HOME, XDG_STATE_HOME, XDG_CONFIG_HOME: where the three folders live
      CACHE_DIRECTORY, STATE_DIRECTORY, CONFIGURATION_DIRECTORY: a systemd unit's own
        (CacheDirectory=...), used first and as they are, without btc-price/ under them
      NO_COLOR                     set (non-empty): no colours

    EXIT STATUS:
      0    the last tick succeeded; or ended by SIGTERM
      1    the last tick failed
      64   usage error
      74   stdout cannot be written
      130  Ctrl-C
      141  (SIGPIPE) stdout's reader is gone

    CURRENCIES (--currency), and the sources that serve each:
    \(PriceSourceRegistry.servingSummary.map { "  " + $0 }.joined(separator: "\n"))

    EXAMPLES:
      btc-price                             run until Ctrl-C, one line a second
      btc-price --live                      the live panel
      btc-price --once --json               one machine-readable line
      btc-price --json | jq -r .price       the exact price, for scripts
      btc-price --count 10 --interval 0.5   ten ticks, two a second
      btc-price --sources coinbase,kraken   only these two, in this order
      btc-price --verbose 2>btc-price.log   log every attempt to a file
      btc-price --currency EUR --once       the price in euros
      btc-price --once --max-age 10 --format '{arrow} {price}'   for tmux
      btc-price --waybar --format '₿ {price}'                     for Waybar
      btc-price --binance-url \\
        'https://api.binance.us/api/v3/ticker/price?symbol=BTCUSDT'      Binance.US

    SEE ALSO: btc-price help serve | publish | doctor | chart; the manual is docs/USAGE.md in \
    the source (also SOURCES.md, ALERTS.md, STATUS-BARS.md, SETTINGS.md).
    """

  /// `  CRYPTOCOMPARE_API_KEY        sent to CryptoCompare only; never printed`, for every source
  /// whose definition takes a key.
  static let apiKeyVariables = PriceSourceRegistry.all.compactMap { definition in
    definition.apiKey.map { key in
      let name = key.environmentVariable
      let padding = String(repeating: " ", count: max(1, 29 - name.count))
      return "  \(name)\(padding)sent to \(definition.source.displayName) only; never printed"
    }
  }.joined(separator: "\n")

  /// `cryptocompare-api-key, `: the settings keys of the sources that take a key.
  static let apiKeySettings = PriceSourceRegistry.all.compactMap { definition in
    definition.apiKey.map { _ in "\(definition.source.id)-api-key, " }
  }.joined()
}

import BTCPriceCore
import BTCPriceFeature
import BTCPriceServer

/// The files an edge serves from disk (`deploy/edge/www/`), made by the code that `serve` answers
/// with, so that the edge's bytes are serve's: the page's script, style, icon and manifest, and
/// what serve answers before it knows any price (the page and the `--json` line of that state),
/// which an edge answers while its channels are still empty. `EdgeFilesAgreementTests` fails
/// when a committed file differs (and rewrites them with `BTC_PRICE_WRITE_EDGE_FILES=1`).
public enum EdgeFiles {
  /// File name → contents, for a deployment in `currency`.
  public static func all(currency: Currency = .usd) -> [(name: String, contents: String)] {
    let unknown = PriceBroadcaster(
      initial: PricePresenter(timestamps: .utc(precision: .seconds), currency: currency)
        .presentRestored(nil),
      page: PricePagePresenter(currency: currency)
    ).latest
    return [
      ("app.js", PageAssets.script),
      ("app.css", PageAssets.stylesheet),
      ("icon.svg", PageAssets.icon),
      ("manifest.webmanifest", PageAssets.manifest(currency)),
      ("index.html", PricePage.render(latest: unknown)),
      ("price-unknown.json", unknown.json + "\n"),
    ]
  }
}

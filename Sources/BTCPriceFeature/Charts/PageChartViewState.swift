/// The day's chart as the web page draws it, every text worded and every point placed by the
/// server's presenter (``PricePagePresenter``): the page's script sets these, computing nothing.
public struct PageChartViewState: Equatable, Sendable {
  /// A mark on the time axis: `18:00` at `position` percent from the left, in whole percent (the
  /// page's stylesheet has a class per percent: `at-25`). `time` is its instant in ISO 8601 UTC:
  /// the page's script writes it in the viewer's own zone, as it does the price's time (the
  /// server words `text` in its own zone, which is not the viewer's).
  public struct TimeMark: Equatable, Sendable {
    public let position: Int
    public let text: String
    public let time: String

    public init(position: Int, text: String, time: String) {
      self.position = position
      self.text = text
      self.time = time
    }
  }

  /// The chart's box: 600 × 200, drawn stretched to the page's width.
  public static let width = 600
  public static let height = 200

  /// `BTC/USD, last 24 hours · Binance`.
  public let title: String
  /// `as of Nov 22, 14:03` while the history is older than its refreshes should leave it.
  public let ageText: String?
  /// The closes as a polyline in the box: `0.0,190.0 2.1,185.5 …`, the high at the top.
  public let line: String
  /// The same line closed along the bottom, for the area under it.
  public let area: String
  /// `up`, `down` or `unchanged`: the chart's colour, the 24-hour change's direction.
  public let direction: String
  /// `high $69,120.00` and `low $67,980.00`, beside the top and the bottom of the box.
  public let highText: String
  public let lowText: String
  public let times: [TimeMark]
  /// What a screen reader says for the chart.
  public let label: String

  public init(
    title: String, ageText: String?, line: String, area: String, direction: String,
    highText: String, lowText: String, times: [TimeMark], label: String
  ) {
    self.title = title
    self.ageText = ageText
    self.line = line
    self.area = area
    self.direction = direction
    self.highText = highText
    self.lowText = lowText
    self.times = times
    self.label = label
  }

  /// The chart as a JSON object, keys in a fixed order, for the page's event stream.
  var json: String {
    let string = JSONLineRenderer.string
    let times = times.map {
      "{\"at\":\($0.position),\"text\":\(string($0.text)),\"time\":\(string($0.time))}"
    }
    return "{\"title\":\(string(title)),\"age\":\(ageText.map(string) ?? "null"),"
      + "\"line\":\(string(line)),\"area\":\(string(area)),"
      + "\"direction\":\(string(direction)),\"high\":\(string(highText)),"
      + "\"low\":\(string(lowText)),\"times\":[\(times.joined(separator: ","))],"
      + "\"label\":\(string(label))}"
  }
}

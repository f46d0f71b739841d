#if canImport(SwiftUI) && canImport(Charts)
  import BTCPriceFeature
  import Charts
  import SwiftUI

  /// The day's chart with Swift Charts (iOS 16+). It only lays out ``ChartViewState``: the
  /// points (x and close from 0 to 1), the time axis's marks and words, the low and the high, the
  /// direction and the spoken words all come from `ChartPresenter`, tested on Linux; this file
  /// cannot be compiled here.
  public struct DayChartView: View {
    private let chart: ChartViewState

    public init(chart: ChartViewState) {
      self.chart = chart
    }

    public var body: some View {
      VStack(alignment: .leading, spacing: 4) {
        HStack {
          Text(verbatim: chart.title)
          if let age = chart.ageText {
            Text(verbatim: age).fontWeight(.semibold)
          }
        }
        .font(.caption)
        .foregroundStyle(.secondary)
        Chart {
          ForEach(Array(chart.points.enumerated()), id: \.offset) { _, point in
            AreaMark(x: .value("Time", point.x), y: .value("Price", point.close))
              .foregroundStyle(tint.opacity(0.15))
            LineMark(x: .value("Time", point.x), y: .value("Price", point.close))
              .foregroundStyle(tint)
          }
        }
        .chartXScale(domain: 0...1)
        .chartYScale(domain: 0...1)
        .chartYAxis(.hidden)
        .chartXAxis {
          AxisMarks(values: chart.timeLabels.map(\.x)) { value in
            AxisGridLine()
            AxisValueLabel {
              Text(verbatim: label(at: value.as(Double.self)))
            }
          }
        }
        .overlay(alignment: .topLeading) { price(chart.highText) }
        .overlay(alignment: .bottomLeading) { price(chart.lowText).padding(.bottom, 24) }
      }
      .accessibilityElement(children: .ignore)
      .accessibilityLabel(Text(verbatim: chart.accessibilityLabel))
    }

    /// The presenter's direction as a colour: a rise over the day green, a fall red.
    private var tint: Color {
      switch chart.direction {
      case .up: return .green
      case .down: return .red
      case .unchanged: return .secondary
      }
    }

    private func price(_ text: String) -> some View {
      Text(verbatim: text)
        .font(.caption2)
        .monospacedDigit()
        .foregroundStyle(.secondary)
        .padding(2)
        .background(.background.opacity(0.8), in: RoundedRectangle(cornerRadius: 4))
    }

    /// The presenter's words for the mark at `x`.
    private func label(at x: Double?) -> String {
      chart.timeLabels.first { $0.x == x }?.text ?? ""
    }
  }
#endif

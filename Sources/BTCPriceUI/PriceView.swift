#if canImport(SwiftUI)
  import Accessibility
  import BTCPriceFeature
  import SwiftUI

  /// The price screen. It only binds to ``PriceViewModel``: every text, and whether the banner
  /// shows, is decided there (and tested on Linux), because this file cannot be compiled here.
  ///
  /// At the largest accessibility text sizes, and in landscape, the texts can be taller than the
  /// screen: the content then scrolls, so every text stays reachable. When it fits, it sits
  /// centred and does not bounce.
  public struct PriceView: View {
    private let model: PriceViewModel

    public init(model: PriceViewModel) {
      self.model = model
    }

    public var body: some View {
      GeometryReader { screen in
        ScrollView(.vertical) {
          content
            .padding()
            .frame(maxWidth: .infinity, minHeight: screen.size.height)
        }
        .scrollBounceBehavior(.basedOnSize)
      }
    }

    private var content: some View {
      VStack(spacing: 16) {
        VStack(spacing: 8) {
          Text(verbatim: model.pairText)
            .font(.headline)
            .foregroundStyle(.secondary)
          Text(verbatim: model.priceText)
            .font(.largeTitle)
            .fontWeight(.semibold)
            .monospacedDigit()
            .lineLimit(1)
            .minimumScaleFactor(0.5)
          Text(verbatim: model.lastUpdatedText)
            .font(.subheadline)
            .foregroundStyle(.secondary)
          if let source = model.sourceName {
            Text(verbatim: source)
              .font(.caption)
              .foregroundStyle(.secondary)
          }
        }
        .multilineTextAlignment(.center)
        .accessibilityElement(children: .ignore)
        .accessibilityLabel(Text(verbatim: model.accessibilityLabel))
        .accessibilityAddTraits(.updatesFrequently)

        if let change = model.changeText {
          Text(verbatim: change)
            .font(.subheadline)
            .monospacedDigit()
            .foregroundStyle(color(of: model.changeDirection))
            .accessibilityLabel(Text(verbatim: model.changeAccessibilityLabel ?? change))
        }

        if let change = model.change24hText {
          Text(verbatim: change)
            .font(.subheadline)
            .monospacedDigit()
            .foregroundStyle(color(of: model.change24hDirection))
            .accessibilityLabel(Text(verbatim: model.change24hAccessibilityLabel ?? change))
        }

        if let chart = model.chart {
          // The day's chart takes the sparkline's place, as in the terminal and on the page.
          DayChartView(chart: chart)
            .frame(height: 180)
        } else if !model.sparklineHeights.isEmpty {
          VStack(spacing: 4) {
            SparklineView(heights: model.sparklineHeights)
              .stroke(.tint, style: StrokeStyle(lineWidth: 2, lineJoin: .round))
              .frame(height: 60)
            if let range = model.rangeText {
              Text(verbatim: range)
                .font(.caption)
                .monospacedDigit()
                .foregroundStyle(.secondary)
            }
          }
          // The range and the spoken change say what the line shows.
          .accessibilityElement(children: .combine)
        }

        if let banner = model.bannerText {
          Text(verbatim: banner)
            .font(.callout)
            .multilineTextAlignment(.center)
            .padding()
            .background(Color.yellow.opacity(0.25), in: RoundedRectangle(cornerRadius: 12))
        }
      }
      // The presenter decides when and what; this only hands it to VoiceOver.
      .onChange(of: model.announcement) { _, announcement in
        if let announcement {
          AccessibilityNotification.Announcement(announcement.text).post()
        }
      }
    }

    private func color(of direction: PriceChange.Direction?) -> Color {
      switch direction {
      case .some(.up): return .green
      case .some(.down): return .red
      default: return .secondary
      }
    }
  }
#endif

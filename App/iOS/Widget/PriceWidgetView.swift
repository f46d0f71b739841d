import BTCPriceWidgetCore
import SwiftUI
import WidgetKit

/// Lays out one entry for each family. Every text, and whether it is stale, comes from
/// `WidgetPriceContent` (BTCPriceWidgetCore, tested on Linux); this only places it.
struct PriceWidgetView: View {
  @Environment(\.widgetFamily) private var family
  let entry: PriceEntry

  private var content: WidgetPriceContent { entry.content }

  var body: some View {
    layout
      .containerBackground(.fill.tertiary, for: .widget)
      .accessibilityElement(children: .ignore)
      .accessibilityLabel(Text(verbatim: content.accessibilityLabel))
  }

  @ViewBuilder private var layout: some View {
    switch family {
    case .accessoryInline:
      Text(verbatim: content.inlineText)
    case .accessoryCircular:
      VStack(spacing: 0) {
        Text(verbatim: content.compactPriceText)
          .font(.headline)
          .minimumScaleFactor(0.5)
        Text(verbatim: content.timeText)
          .font(.caption2)
          .foregroundStyle(
            content.isStale ? HierarchicalShapeStyle.secondary : HierarchicalShapeStyle.primary)
      }
    case .accessoryRectangular:
      VStack(alignment: .leading, spacing: 0) {
        Text(verbatim: content.pairText)
          .font(.caption)
        Text(verbatim: content.priceText)
          .font(.headline)
          .monospacedDigit()
          .minimumScaleFactor(0.6)
        status
      }
      .frame(maxWidth: .infinity, alignment: .leading)
    default:
      VStack(alignment: .leading, spacing: 4) {
        Text(verbatim: content.pairText)
          .font(.caption)
          .foregroundStyle(.secondary)
        Text(verbatim: content.priceText)
          .font(.title2)
          .fontWeight(.semibold)
          .monospacedDigit()
          .lineLimit(1)
          .minimumScaleFactor(0.5)
        if let change = content.change24hText {
          Text(verbatim: change)
            .font(.caption)
            .monospacedDigit()
            .foregroundStyle(tint(rises: content.change24hRises))
        }
        Spacer(minLength: 0)
        status
      }
      .frame(maxWidth: .infinity, maxHeight: .infinity, alignment: .leading)
    }
  }

  /// The presenter's direction as a colour: a rise green, a fall red.
  private func tint(rises: Bool?) -> Color {
    rises.map { $0 ? Color.green : Color.red } ?? Color.secondary
  }

  /// `as of 14:03`, or with a warning sign `not updated since 14:03`.
  private var status: some View {
    HStack(spacing: 4) {
      if content.isStale {
        Image(systemName: "exclamationmark.triangle")
      }
      Text(verbatim: content.asOfText)
    }
    .font(.caption2)
    .foregroundStyle(.secondary)
    .lineLimit(2)
  }
}

import Foundation

/// How numbers, booleans and dates read in query strings and form fields: the same text on every platform and
/// locale, never an exponent.
enum ScalarText {
    static func text(_ value: Bool) -> String { value ? "true" : "false" }

    /// The shortest text that reads back as `value`, without exponent and without a `.0` for whole numbers:
    /// `1e-07` is `0.0000001`, `2.0` is `2`.
    static func text(_ value: Double) -> String { plain("\(value)") }

    /// `shortest` (Swift's round-tripping text of a float) with its exponent written out and without `.0`.
    static func plain(_ shortest: String) -> String {
        let lowercased = shortest.lowercased()
        guard let exponentIndex = lowercased.firstIndex(of: "e"),
            let exponent = Int(lowercased[lowercased.index(after: exponentIndex)...])
        else { return shortest.hasSuffix(".0") ? String(shortest.dropLast(2)) : shortest }
        var mantissa = String(lowercased[..<exponentIndex])
        let sign = mantissa.hasPrefix("-") ? "-" : ""
        if !sign.isEmpty { mantissa.removeFirst() }
        let parts = mantissa.split(separator: ".", maxSplits: 1)
        let digits = parts.joined()
        // Where the decimal point goes, counted in digits from the left.
        let point = (parts.first?.count ?? 0) + exponent
        let text: String
        if point <= 0 {
            text = "0." + String(repeating: "0", count: -point) + digits
        } else if point >= digits.count {
            text = digits + String(repeating: "0", count: point - digits.count)
        } else {
            text = digits.prefix(point) + "." + digits.dropFirst(point)
        }
        let trimmed =
            text.contains(".")
            ? String(text.reversed().drop { $0 == "0" }.reversed()).trimmingCharacters(
                in: CharacterSet(charactersIn: ".")
            ) : text
        return sign + trimmed
    }

    /// ISO 8601 in UTC with fractional seconds when there are any, e.g. `2026-11-21T09:30:00Z`.
    static func text(_ value: Date) -> String {
        var options: ISO8601DateFormatter.Options = [.withInternetDateTime]
        if value.timeIntervalSince1970.truncatingRemainder(dividingBy: 1) != 0 {
            options.insert(.withFractionalSeconds)
        }
        let utc = TimeZone(identifier: "UTC") ?? TimeZone(secondsFromGMT: 0) ?? .current
        return ISO8601DateFormatter.string(from: value, timeZone: utc, formatOptions: options)
    }

    /// The text of a scalar value, or `nil` when `value` is not one.
    static func text(of value: Any) -> String? {
        switch value {
        case let value as String: value
        case let value as Bool: text(value)
        case let value as Double: text(value)
        case let value as Float: plain("\(value)")
        case let value as Decimal: "\(value)"
        case let value as Date: text(value)
        case let value as URL: value.absoluteString
        case let value as any BinaryInteger: "\(value)"
        default: nil
        }
    }
}

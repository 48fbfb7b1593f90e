/// The directives of a `Cache-Control` field (RFC 9111, section 5.2) that a private cache acts on, for a request or a
/// response.
///
/// A directive given twice counts once, by its first occurrence (section 4.2.1); a `max-age` whose value is not a
/// number makes the response stale, and a number too large for the cache counts as 2147483648 seconds (section
/// 1.2.2). Unknown directives are ignored, as the RFC asks.
struct CacheControl: Equatable {
    var maxAge: Int?
    var noCache = false
    var noStore = false
    var mustRevalidate = false
    var isPublic = false
    var isPrivate = false
    /// `max-stale` of a request: how stale a response it accepts; `Int.max` for `max-stale` without a value.
    var maxStale: Int?
    var minFresh: Int?
    var onlyIfCached = false
    /// RFC 5861's extensions: how long past its freshness a response may be served while it is revalidated, or when
    /// revalidation fails.
    var staleWhileRevalidate: Int?
    var staleIfError: Int?

    /// The largest delta-seconds a cache needs to tell apart (RFC 9111, section 1.2.2).
    static let greatestDeltaSeconds = 2_147_483_648

    init() {}

    /// The directives of a field's value; `nil` reads as no directives.
    init(_ value: String?) {
        guard let value else { return }
        var seen: Set<String> = []
        for (name, argument) in Self.directives(in: value) where seen.insert(name).inserted {
            switch name {
            case "max-age": maxAge = Self.seconds(argument) ?? 0
            case "no-cache": noCache = true
            case "no-store": noStore = true
            case "must-revalidate", "proxy-revalidate": mustRevalidate = true
            case "public": isPublic = true
            case "private": isPrivate = true
            case "max-stale": maxStale = argument == nil ? Int.max : Self.seconds(argument)
            case "min-fresh": minFresh = Self.seconds(argument)
            case "only-if-cached": onlyIfCached = true
            case "stale-while-revalidate": staleWhileRevalidate = Self.seconds(argument)
            case "stale-if-error": staleIfError = Self.seconds(argument)
            default: break
            }
        }
    }

    /// A delta-seconds argument: digits only, capped at ``greatestDeltaSeconds``; `nil` for anything else.
    static func seconds(_ text: Substring?) -> Int? {
        guard let text, !text.isEmpty, text.utf8.allSatisfy({ (UInt8(ascii: "0")...UInt8(ascii: "9")).contains($0) })
        else { return nil }
        return Int(text).map { min($0, greatestDeltaSeconds) } ?? greatestDeltaSeconds
    }

    /// The `name[=argument]` pairs of a field, names lowercased, quoted arguments unquoted; commas inside quotes
    /// (`no-cache="a, b"`) do not split.
    static func directives(in value: String) -> [(name: String, argument: Substring?)] {
        var result: [(name: String, argument: Substring?)] = []
        for part in splitOutsideQuotes(value) {
            let trimmed = part.trimmingSpaces()
            guard !trimmed.isEmpty else { continue }
            guard let equals = trimmed.firstIndex(of: "=") else {
                result.append((trimmed.lowercased(), nil))
                continue
            }
            var argument = trimmed[trimmed.index(after: equals)...].trimmingSpaces()
            if argument.count >= 2, argument.first == "\"", argument.last == "\"" {
                argument = argument.dropFirst().dropLast()
            }
            result.append((trimmed[..<equals].trimmingSpaces().lowercased(), argument))
        }
        return result
    }

    private static func splitOutsideQuotes(_ value: String) -> [Substring] {
        var parts: [Substring] = []
        var start = value.startIndex
        var quoted = false
        var index = value.startIndex
        while index < value.endIndex {
            switch value[index] {
            case "\"": quoted.toggle()
            case "," where !quoted:
                parts.append(value[start..<index])
                start = value.index(after: index)
            default: break
            }
            index = value.index(after: index)
        }
        parts.append(value[start...])
        return parts
    }
}

extension StringProtocol {
    /// Without the spaces and tabs that HTTP allows around a field's parts.
    func trimmingSpaces() -> SubSequence {
        let isSpace: (Character) -> Bool = { $0 == " " || $0 == "\t" }
        guard let first = firstIndex(where: { !isSpace($0) }), let last = lastIndex(where: { !isSpace($0) }) else {
            return self[endIndex...]
        }
        return self[first...last]
    }
}

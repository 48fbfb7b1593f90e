/// The value of one query parameter: a single value, or several sent in one of three array styles.
///
/// Literals work directly: `["page": 2, "tag": ["a", "b"], "draft": false]` is sent as
/// `draft=false&page=2&tag=a&tag=b`. Every character outside RFC 3986's unreserved set (`A–Z a–z 0–9 - . _ ~`) is
/// percent-encoded, in keys and values alike, so `a+b c&d=e` arrives as `a+b c&d=e`.
public enum QueryParameterValue: Sendable, Hashable {
    /// A single value: `key=value`.
    case string(String)
    /// Several values in the given style (by default the key repeated: `key=a&key=b`). An empty array sends nothing.
    case array([String], style: ArrayStyle = .repeatedKey)

    /// How an array of values is written in a query.
    public enum ArrayStyle: Sendable, Hashable {
        /// `tag=a&tag=b`: what most servers read as an array.
        case repeatedKey
        /// `tag%5B%5D=a&tag%5B%5D=b`, i.e. `tag[]=a&tag[]=b` (PHP, Rails); the brackets are percent-encoded like
        /// everything outside the unreserved set, which those servers decode.
        case bracketedKey
        /// `tag=a,b`: one field, values joined by a literal comma; a comma inside a value is sent as `%2C`.
        case commaSeparated
    }

    /// A whole number, e.g. `2` or `-40`.
    public static func int(_ value: Int) -> QueryParameterValue { .string(String(value)) }

    /// `true` or `false`.
    public static func bool(_ value: Bool) -> QueryParameterValue { .string(ScalarText.text(value)) }

    /// The shortest decimal that reads back as `value`, never with an exponent or a `.0`: `0.1`, `0.0000001`,
    /// `1500000`.
    public static func double(_ value: Double) -> QueryParameterValue { .string(ScalarText.text(value)) }

    /// The values in the order they are sent.
    public var values: [String] {
        switch self {
        case .string(let value): [value]
        case .array(let values, _): values
        }
    }

    /// `key=value` fields for the query, or `nil` for an empty array.
    func encoded(key: String) -> String? {
        let encode = { (text: String) in PercentEncoding.encode(text, allowing: PercentEncoding.unreserved) }
        switch self {
        case .string(let value):
            return encode(key) + "=" + encode(value)
        case .array(let values, _) where values.isEmpty:
            return nil
        case .array(let values, .repeatedKey):
            return values.map { encode(key) + "=" + encode($0) }.joined(separator: "&")
        case .array(let values, .bracketedKey):
            return values.map { encode(key + "[]") + "=" + encode($0) }.joined(separator: "&")
        case .array(let values, .commaSeparated):
            return encode(key) + "=" + values.map(encode).joined(separator: ",")
        }
    }
}

extension QueryParameterValue: ExpressibleByStringLiteral {
    /// Creates a single value from a string literal.
    public init(stringLiteral value: String) {
        self = .string(value)
    }
}

extension QueryParameterValue: ExpressibleByArrayLiteral {
    /// Creates several values, sent as the key repeated, from an array literal of strings.
    public init(arrayLiteral elements: String...) {
        self = .array(elements)
    }
}

extension QueryParameterValue: ExpressibleByIntegerLiteral {
    /// Creates a single value from an integer literal, e.g. `"page": 2`.
    public init(integerLiteral value: Int) {
        self = .int(value)
    }
}

extension QueryParameterValue: ExpressibleByBooleanLiteral {
    /// Creates a single value from a boolean literal, sent as `true` or `false`.
    public init(booleanLiteral value: Bool) {
        self = .bool(value)
    }
}

extension QueryParameterValue: ExpressibleByFloatLiteral {
    /// Creates a single value from a decimal literal, sent without exponent.
    public init(floatLiteral value: Double) {
        self = .double(value)
    }
}

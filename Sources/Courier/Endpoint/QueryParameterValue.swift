/// The value of one query parameter: a single string, or an array sent as the key repeated once per element.
///
/// String and array literals work directly: `["page": "2", "tag": ["a", "b"]]` is sent as
/// `page=2&tag=a&tag=b`.
public enum QueryParameterValue: Sendable, Hashable {
    /// A single value: `key=value`.
    case string(String)
    /// Several values, sent as the key repeated: `key=a&key=b`. An empty array sends nothing.
    case array([String])

    /// The values in the order they are sent.
    public var values: [String] {
        switch self {
        case .string(let value): [value]
        case .array(let values): values
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
    /// Creates several values from an array literal of strings.
    public init(arrayLiteral elements: String...) {
        self = .array(elements)
    }
}

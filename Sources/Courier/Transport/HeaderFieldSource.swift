/// Header fields as a transport received them, made into a dictionary only when something asks: decoding a body
/// needs none, so a provider without plugins never builds one.
package protocol HeaderFieldSource: Sendable {
    /// The fields, a repeated one's values joined with commas as URLSession does.
    var headerFields: [String: String] { get }
}

extension Dictionary: HeaderFieldSource where Key == String, Value == String {
    /// The dictionary itself: fields a transport already has in this shape.
    package var headerFields: [String: String] { self }
}

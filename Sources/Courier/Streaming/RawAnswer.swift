import Foundation

/// An answer of any status from the raw exchange (``ApiProvider/rawExchange(on:body:)``): its status and header
/// fields as the transport gave them, and its body as it arrives. Made without an `HTTPURLResponse`, which a client
/// that reads the status and fields itself (a generated OpenAPI client) does not need.
package struct RawAnswer<ClientErrorType: Decodable & Sendable>: Sendable {
    /// The HTTP status code.
    package let statusCode: Int
    /// The header fields, a repeated field's values joined with commas.
    package let headerFields: [String: String]
    /// The body, part by part.
    package let chunks: ResponseChunks<ClientErrorType>
}

import Foundation

/// What a request carries as its body, and so which `Content-Type` it is sent with.
///
/// Each kind sets its own `Content-Type` unless the endpoint's ``Endpoint/headers`` name one (in any letter case):
/// - ``json(_:)``: the value encoded by the endpoint's ``Endpoint/encoder``; `application/json`.
/// - `form(_:)`: `name=value&…` as HTML forms encode it; `application/x-www-form-urlencoded`.
/// - ``formEncodable(_:)``: the value's properties as form fields, in declaration order; the same type.
/// - ``multipart(_:)``: RFC 7578 parts, files read from disk in chunks; `multipart/form-data; boundary=…`.
/// - ``data(_:contentType:)``: the bytes as they are; the given type, or `application/json`.
/// - ``file(_:contentType:)``: the file, read from disk in chunks; the given type, or one inferred from the
///   extension.
public enum HttpBody: Sendable {
    /// Raw bytes with the given `Content-Type`; `nil` sends `application/json`, as Microya did for every body.
    case data(Data, contentType: String? = nil)

    /// A value encoded as JSON by the endpoint's ``Endpoint/encoder``.
    case json(any Encodable & Sendable)

    /// Form fields in the given order, encoded as HTML forms do: a space becomes `+`, every other character
    /// outside `A–Z a–z 0–9 - . _ *` is percent-encoded.
    case form([(name: String, value: String)])

    /// A value's properties as form fields, in the order its `encode(to:)` writes them (declaration order for a
    /// synthesized conformance; a `[String: …]` dictionary's sorted by key, as it has no order of its own).
    ///
    /// Strings, numbers, booleans, URLs, dates (ISO 8601 in UTC) and optionals (a `nil` is left out) become one
    /// field each; an array of them repeats the field. A nested object cannot be expressed in a flat form and
    /// fails the request with ``ApiError/invalidRequest(reason:)``.
    case formEncodable(any Encodable & Sendable)

    /// A `multipart/form-data` body (RFC 7578) of text fields and files.
    case multipart([MultipartPart])

    /// The contents of a file, read from disk in chunks while sending; `contentType` `nil` infers it from the
    /// file extension (``MediaType/forFileExtension(_:)``).
    case file(URL, contentType: String? = nil)

    /// Form fields from a dictionary literal, which keeps the order written: `.form(["q": "a b", "page": "2"])`.
    public static func form(_ fields: KeyValuePairs<String, String>) -> HttpBody {
        .form(fields.map { (name: $0.key, value: $0.value) })
    }
}

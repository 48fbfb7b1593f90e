import Foundation

/// The HTTP method of a request, with the body for the methods that carry one.
///
/// Bodies are ``HttpBody`` values, e.g. `.post(body: .json(todo))` or `.put(body: .form(["name": "Ann"]))`. The
/// Microya spellings with `Data` compile too: `.post(body: data)` and `.post(data)` send the bytes as
/// `application/json`. A body of `nil` sends no body. `GET`, `HEAD` and `OPTIONS` never carry one; a `DELETE`
/// with a body is ``delete(body:)``.
public enum HttpMethod: Sendable {
    /// `GET`: read a resource.
    case get
    /// `HEAD`: like `GET`, but the server sends headers only; the answer decodes as empty.
    case head
    /// `POST` with an optional body.
    case post(body: HttpBody? = nil)
    /// `PUT` with an optional body.
    case put(body: HttpBody? = nil)
    /// `PATCH` with an optional body.
    case patch(body: HttpBody? = nil)
    /// `DELETE` without a body.
    case delete
    /// `OPTIONS`: ask the server which methods a resource allows.
    case options
    /// Any other method token (for example `PROPFIND`), with an optional body.
    case custom(verb: String, body: HttpBody? = nil)

    /// `DELETE` with a body (sent as ``custom(verb:body:)`` with the verb `DELETE`).
    public static func delete(body: HttpBody?) -> HttpMethod { .custom(verb: "DELETE", body: body) }

    /// `POST` with raw bytes sent as `application/json`, Microya's spelling.
    @_disfavoredOverload
    public static func post(body: Data?) -> HttpMethod { .post(body: body.map { .data($0) }) }

    /// `PUT` with raw bytes sent as `application/json`, Microya's spelling.
    @_disfavoredOverload
    public static func put(body: Data?) -> HttpMethod { .put(body: body.map { .data($0) }) }

    /// `PATCH` with raw bytes sent as `application/json`, Microya's spelling.
    @_disfavoredOverload
    public static func patch(body: Data?) -> HttpMethod { .patch(body: body.map { .data($0) }) }

    /// `POST` with raw bytes, in the unlabelled spelling.
    public static func post(_ body: Data?) -> HttpMethod { .post(body: body) }

    /// `PUT` with raw bytes, in the unlabelled spelling.
    public static func put(_ body: Data?) -> HttpMethod { .put(body: body) }

    /// `PATCH` with raw bytes, in the unlabelled spelling.
    public static func patch(_ body: Data?) -> HttpMethod { .patch(body: body) }

    /// The method token as it is sent on the request line, e.g. `"POST"`.
    public var name: String {
        switch self {
        case .get: "GET"
        case .head: "HEAD"
        case .post: "POST"
        case .put: "PUT"
        case .patch: "PATCH"
        case .delete: "DELETE"
        case .options: "OPTIONS"
        case .custom(let verb, _): verb
        }
    }

    /// The body sent with the request, if the method carries one.
    public var body: HttpBody? {
        switch self {
        case .get, .head, .delete, .options: nil
        case .post(let body), .put(let body), .patch(let body), .custom(_, let body): body
        }
    }
}

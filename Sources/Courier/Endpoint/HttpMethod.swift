import Foundation

/// The HTTP method of a request, with the body for the methods that carry one.
///
/// Both spellings found in Microya code compile: `.post(body: data)` and `.post(data)`. A body of `nil` sends
/// no body at all. `GET`, `HEAD` and `OPTIONS` never carry a body; for anything else use ``custom(verb:body:)``.
public enum HttpMethod: Sendable, Hashable {
    /// `GET`: read a resource.
    case get
    /// `HEAD`: like `GET`, but the server sends headers only.
    case head
    /// `POST` with an optional body.
    case post(body: Data? = nil)
    /// `PUT` with an optional body.
    case put(body: Data? = nil)
    /// `PATCH` with an optional body.
    case patch(body: Data? = nil)
    /// `DELETE` without a body.
    case delete
    /// `OPTIONS`: ask the server which methods a resource allows.
    case options
    /// Any other method token (for example `PROPFIND` or a `DELETE` with a body), with an optional body.
    case custom(verb: String, body: Data? = nil)

    /// `POST` with the given body, in the unlabelled spelling.
    public static func post(_ body: Data?) -> HttpMethod { .post(body: body) }

    /// `PUT` with the given body, in the unlabelled spelling.
    public static func put(_ body: Data?) -> HttpMethod { .put(body: body) }

    /// `PATCH` with the given body, in the unlabelled spelling.
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
    public var body: Data? {
        switch self {
        case .get, .head, .delete, .options: nil
        case .post(let body), .put(let body), .patch(let body), .custom(_, let body): body
        }
    }
}

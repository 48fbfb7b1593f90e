import Foundation

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// Builds the `URLRequest` for an endpoint: URL joining, query encoding, method, body and headers.
///
/// Every input that could produce a request different from what the endpoint says is refused with a reason
/// instead: a base URL without an http(s) scheme or host, a `.` or `..` path segment, a method or header name that
/// is not an HTTP token, a header value with CR, LF or NUL (header injection), a body that does not encode.
enum RequestBuilder {
    /// Where file contents of a body go: into a file that the transport streams (sending), or into the request
    /// itself, so that it can be looked at (inspecting).
    enum Purpose {
        case sending
        case inspecting
    }

    /// A built request, and the file its body is streamed from when it has one.
    struct Built: Sendable {
        var request: URLRequest
        var bodyFile: BodyFile?
    }

    /// A body that the transport uploads from disk; a temporary one is deleted once the request has ended.
    struct BodyFile: Sendable {
        let url: URL
        let isTemporary: Bool

        /// Deletes the file if Courier wrote it for this request; a caller's own file is left alone.
        func removeIfTemporary() {
            if isTemporary { try? FileManager.default.removeItem(at: url) }
        }
    }

    /// - Parameter method: Sent instead of the endpoint's own ``Endpoint/method`` (a door that brings its own body).
    static func request<EndpointType: Endpoint>(
        for endpoint: EndpointType,
        baseUrl: URL?,
        method: HttpMethod? = nil,
        purpose: Purpose = .sending,
        baseUrls: BaseUrlCache = BaseUrlCache()
    ) -> Result<Built, InvalidRequestError> {
        Result { () throws(InvalidRequestError) in
            let base = try baseUrls.parsed(try chosenBaseUrl(provider: baseUrl, endpoint: endpoint))
            let bringsOwnBody = method != nil
            let method = method ?? endpoint.method
            guard HeaderFields.isToken(method.name.utf8) else {
                throw InvalidRequestError(reason: "the method \(quoted(method.name)) is not a valid HTTP method token")
            }
            // One initializer instead of setters: each setter of a `URLRequest` copies its storage first.
            var request = URLRequest(
                url: try url(for: endpoint, base: base),
                cachePolicy: endpoint.cachePolicy,
                timeoutInterval: endpoint.idleTimeout.map(timeoutInterval) ?? defaultTimeoutInterval
            )
            // `GET` is the default; FoundationNetworking's setter compares the name against every standard method.
            if method.name != "GET" { request.httpMethod = method.name }
            guard let body = method.body else {
                request.allHTTPHeaderFields = try headerFields(endpoint.headers, contentType: nil)
                return Built(request: request, bodyFile: nil)
            }
            try refuseBody(on: method)
            let encoded = try encode(body, encoder: endpoint.encoder, purpose: purpose)
            do throws(InvalidRequestError) {
                // One slot in Foundation: assigning a nil stream would clear the body.
                if let data = encoded.data { request.httpBody = data }
                if let stream = encoded.stream { request.httpBodyStream = stream }
                try validateHeader(name: "Content-Type", value: encoded.contentType)
                // A door that brings its own body (multipart) sends that body's type, e.g. with its boundary,
                // whatever `Content-Type` the endpoint declares for its own bodies, as Microya does.
                request.allHTTPHeaderFields = try headerFields(
                    endpoint.headers,
                    contentType: encoded.contentType,
                    contentTypeWins: bringsOwnBody
                )
            } catch {
                encoded.file?.removeIfTemporary()
                throw error
            }
            return Built(request: request, bodyFile: encoded.file)
        }
    }

    /// Refuses a body on a `GET` or `HEAD` request, whose body servers ignore or reject.
    static func refuseBody(on method: HttpMethod) throws(InvalidRequestError) {
        let name = method.name.uppercased()
        guard name != "GET", name != "HEAD" else {
            throw InvalidRequestError(reason: "a \(name) request cannot carry a body")
        }
    }

    /// The provider's base URL, else the endpoint's; refused when neither names a server.
    private static func chosenBaseUrl(provider: URL?, endpoint: some Endpoint) throws(InvalidRequestError) -> URL {
        if let provider { return provider }
        let own = endpoint.baseUrl
        guard own != missingBaseUrl else {
            throw InvalidRequestError(
                reason: "\(endpoint.nameForMessages) has no base URL; pass one to ApiProvider(baseUrl:) or "
                    + "declare `baseUrl` on \(type(of: endpoint))"
            )
        }
        return own
    }

    private static let defaultFields = ["Accept": "application/json"]

    /// What `URLRequest(url:)` starts with; the session's own timeout applies as well.
    private static let defaultTimeoutInterval: TimeInterval = 60

    /// The endpoint's headers over the defaults (`Accept: application/json` and the body's `Content-Type`), names
    /// compared case-insensitively as HTTP does: `accept` replaces `Accept`, and the two are never both sent.
    ///
    /// Checked here, and set as a whole: FoundationNetworking's `setValue` silently drops a value with CR or LF
    /// (which would send the request without the header instead of refusing it), and its field-by-field
    /// case-insensitive search costs more than the rest of building the request.
    private static func headerFields(
        _ headers: [String: String],
        contentType: String?,
        contentTypeWins: Bool = false
    ) throws(InvalidRequestError) -> [String: String] {
        // Shared, not made anew: most requests send the defaults alone.
        guard contentType != nil || !headers.isEmpty else { return defaultFields }
        var fields = defaultFields
        if let contentType { fields["Content-Type"] = contentType }
        guard !headers.isEmpty else { return fields }
        var seen: [String: String] = [:]
        for name in headers.keys.sorted() {
            let lowercased = name.lowercased()
            if let earlier = seen[lowercased] {
                throw InvalidRequestError(
                    reason: "the header \(quoted(earlier)) is given twice, also as \(quoted(name))"
                )
            }
            seen[lowercased] = name
            let value = headers[name] ?? ""
            try validateHeader(name: name, value: value)
            switch lowercased {
            case "accept": fields["Accept"] = nil
            case "content-type":
                if contentTypeWins { continue }
                fields["Content-Type"] = nil
            default: break
            }
            fields[name] = value
        }
        return fields
    }

    /// Refuses header names that are not HTTP tokens and values holding CR, LF or NUL, which would let one
    /// header smuggle another (or a whole request) onto the wire.
    static func validateHeaders(of request: URLRequest) throws(InvalidRequestError) {
        for (name, value) in request.allHTTPHeaderFields ?? [:] {
            try validateHeader(name: name, value: value)
        }
    }

    private static func validateHeader(name: String, value: String) throws(InvalidRequestError) {
        guard HeaderFields.isToken(name.utf8) else {
            throw InvalidRequestError(reason: "the header name \(quoted(name)) is not a valid HTTP token")
        }
        // The value itself stays out of the reason: it may be a credential, and reasons end up in logs.
        guard !containsLineBreakOrNul(value) else {
            throw InvalidRequestError(reason: "the value of header \(quoted(name)) contains CR, LF or NUL")
        }
    }

    /// Seconds for `URLRequest`. FoundationNetworking truncates a timeout to whole seconds (0.5 s would become 0),
    /// so there a fraction is rounded up: a timeout never fires earlier than the endpoint said.
    static func timeoutInterval(_ timeout: Duration) -> TimeInterval {
        let exact = timeout.inSeconds
        #if canImport(FoundationNetworking)
        return exact.rounded(.up)
        #else
        return exact
        #endif
    }

    /// Whether `value` holds CR, LF or NUL, which would end a header line early and start another.
    static func containsLineBreakOrNul(_ value: String) -> Bool {
        value.unicodeScalars.contains { $0 == "\r" || $0 == "\n" || $0 == "\0" }
    }

    static func quoted(_ string: String) -> String {
        "\"" + string.debugDescription.dropFirst().dropLast() + "\""
    }
}

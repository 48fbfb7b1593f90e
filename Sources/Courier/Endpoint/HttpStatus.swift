/// An HTTP status code, with names for the registered codes and room for any other.
///
/// `HttpStatus` is a small value around ``code``: `.ok`, `.notFound` or `HttpStatus(code: 799)` all work, and
/// so do integer literals (`let status: HttpStatus = 418`).
public struct HttpStatus: Sendable, Hashable, Codable, ExpressibleByIntegerLiteral, CustomStringConvertible {
    /// The numeric status code, e.g. `404`.
    public let code: Int

    /// Creates a status from its numeric code; any code is accepted.
    public init(code: Int) {
        self.code = code
    }

    /// Creates a status from its numeric code, in Microya's spelling; the same as ``init(code:)``.
    public init(statusCode: Int) {
        self.init(code: statusCode)
    }

    /// A status for any code, in Microya's spelling of an unnamed one; the same as ``init(code:)``.
    public static func custom(code: Int) -> HttpStatus {
        HttpStatus(code: code)
    }

    /// Creates a status from an integer literal.
    public init(integerLiteral value: Int) {
        self.init(code: value)
    }

    /// The registered reason phrase (e.g. `"Not Found"`), or the class of the code when it is not registered
    /// (e.g. `"Client Error"` for 499).
    public var reasonPhrase: String {
        if let phrase = Self.reasonPhrases[code] { return phrase }
        switch code {
        case 100..<200: return "Informational"
        case 200..<300: return "Success"
        case 300..<400: return "Redirection"
        case 400..<500: return "Client Error"
        case 500..<600: return "Server Error"
        default: return "Unknown Status"
        }
    }

    /// The code and phrase, e.g. `"404 Not Found"`.
    public var description: String { "\(code) \(reasonPhrase)" }

    /// Whether the code is in 200–299.
    public var isSuccess: Bool { (200..<300).contains(code) }

    private static let reasonPhrases: [Int: String] = [
        100: "Continue", 101: "Switching Protocols", 102: "Processing", 103: "Early Hints",
        200: "OK", 201: "Created", 202: "Accepted", 203: "Non-Authoritative Information", 204: "No Content",
        205: "Reset Content", 206: "Partial Content", 207: "Multi-Status", 208: "Already Reported", 226: "IM Used",
        300: "Multiple Choices", 301: "Moved Permanently", 302: "Found", 303: "See Other", 304: "Not Modified",
        305: "Use Proxy", 307: "Temporary Redirect", 308: "Permanent Redirect",
        400: "Bad Request", 401: "Unauthorized", 402: "Payment Required", 403: "Forbidden", 404: "Not Found",
        405: "Method Not Allowed", 406: "Not Acceptable", 407: "Proxy Authentication Required",
        408: "Request Timeout", 409: "Conflict", 410: "Gone", 411: "Length Required", 412: "Precondition Failed",
        413: "Content Too Large", 414: "URI Too Long", 415: "Unsupported Media Type", 416: "Range Not Satisfiable",
        417: "Expectation Failed", 418: "I'm a teapot", 421: "Misdirected Request", 422: "Unprocessable Content",
        423: "Locked", 424: "Failed Dependency", 425: "Too Early", 426: "Upgrade Required",
        428: "Precondition Required", 429: "Too Many Requests", 431: "Request Header Fields Too Large",
        451: "Unavailable For Legal Reasons",
        500: "Internal Server Error", 501: "Not Implemented", 502: "Bad Gateway", 503: "Service Unavailable",
        504: "Gateway Timeout", 505: "HTTP Version Not Supported", 506: "Variant Also Negotiates",
        507: "Insufficient Storage", 508: "Loop Detected", 510: "Not Extended",
        511: "Network Authentication Required",
    ]
}

/// The registered status codes by name.
extension HttpStatus {
    /// `100 Continue`.
    public static let `continue`: HttpStatus = 100
    /// `101 Switching Protocols`.
    public static let switchingProtocols: HttpStatus = 101
    /// `102 Processing`.
    public static let processing: HttpStatus = 102
    /// `103 Early Hints`.
    public static let earlyHints: HttpStatus = 103
    /// `200 OK`.
    public static let ok: HttpStatus = 200
    /// `201 Created`.
    public static let created: HttpStatus = 201
    /// `202 Accepted`.
    public static let accepted: HttpStatus = 202
    /// `203 Non-Authoritative Information`.
    public static let nonAuthoritativeInformation: HttpStatus = 203
    /// `204 No Content`.
    public static let noContent: HttpStatus = 204
    /// `205 Reset Content`.
    public static let resetContent: HttpStatus = 205
    /// `206 Partial Content`.
    public static let partialContent: HttpStatus = 206
    /// `207 Multi-Status`.
    public static let multiStatus: HttpStatus = 207
    /// `208 Already Reported`.
    public static let alreadyReported: HttpStatus = 208
    /// `226 IM Used`.
    public static let imUsed: HttpStatus = 226
    /// `300 Multiple Choices`.
    public static let multipleChoices: HttpStatus = 300
    /// `301 Moved Permanently`.
    public static let movedPermanently: HttpStatus = 301
    /// `302 Found`.
    public static let found: HttpStatus = 302
    /// `303 See Other`.
    public static let seeOther: HttpStatus = 303
    /// `304 Not Modified`.
    public static let notModified: HttpStatus = 304
    /// `305 Use Proxy`.
    public static let useProxy: HttpStatus = 305
    /// `307 Temporary Redirect`.
    public static let temporaryRedirect: HttpStatus = 307
    /// `308 Permanent Redirect`.
    public static let permanentRedirect: HttpStatus = 308
    /// `400 Bad Request`.
    public static let badRequest: HttpStatus = 400
    /// `401 Unauthorized`.
    public static let unauthorized: HttpStatus = 401
    /// `402 Payment Required`.
    public static let paymentRequired: HttpStatus = 402
    /// `403 Forbidden`.
    public static let forbidden: HttpStatus = 403
    /// `404 Not Found`.
    public static let notFound: HttpStatus = 404
    /// `405 Method Not Allowed`.
    public static let methodNotAllowed: HttpStatus = 405
    /// `406 Not Acceptable`.
    public static let notAcceptable: HttpStatus = 406
    /// `407 Proxy Authentication Required`.
    public static let proxyAuthenticationRequired: HttpStatus = 407
    /// `408 Request Timeout`.
    public static let requestTimeout: HttpStatus = 408
    /// `409 Conflict`.
    public static let conflict: HttpStatus = 409
    /// `410 Gone`.
    public static let gone: HttpStatus = 410
    /// `411 Length Required`.
    public static let lengthRequired: HttpStatus = 411
    /// `412 Precondition Failed`.
    public static let preconditionFailed: HttpStatus = 412
    /// `413 Content Too Large`.
    public static let payloadTooLarge: HttpStatus = 413
    /// `414 URI Too Long`.
    public static let uriTooLong: HttpStatus = 414
    /// `415 Unsupported Media Type`.
    public static let unsupportedMediaType: HttpStatus = 415
    /// `416 Range Not Satisfiable`.
    public static let rangeNotSatisfiable: HttpStatus = 416
    /// `417 Expectation Failed`.
    public static let expectationFailed: HttpStatus = 417
    /// `418 I'm a teapot`.
    public static let imATeapot: HttpStatus = 418
    /// `421 Misdirected Request`.
    public static let misdirectedRequest: HttpStatus = 421
    /// `422 Unprocessable Content`.
    public static let unprocessableEntity: HttpStatus = 422
    /// `423 Locked`.
    public static let locked: HttpStatus = 423
    /// `424 Failed Dependency`.
    public static let failedDependency: HttpStatus = 424
    /// `425 Too Early`.
    public static let tooEarly: HttpStatus = 425
    /// `426 Upgrade Required`.
    public static let upgradeRequired: HttpStatus = 426
    /// `428 Precondition Required`.
    public static let preconditionRequired: HttpStatus = 428
    /// `429 Too Many Requests`.
    public static let tooManyRequests: HttpStatus = 429
    /// `431 Request Header Fields Too Large`.
    public static let requestHeaderFieldsTooLarge: HttpStatus = 431
    /// `451 Unavailable For Legal Reasons`.
    public static let unavailableForLegalReasons: HttpStatus = 451
    /// `500 Internal Server Error`.
    public static let internalServerError: HttpStatus = 500
    /// `501 Not Implemented`.
    public static let notImplemented: HttpStatus = 501
    /// `502 Bad Gateway`.
    public static let badGateway: HttpStatus = 502
    /// `503 Service Unavailable`.
    public static let serviceUnavailable: HttpStatus = 503
    /// `504 Gateway Timeout`.
    public static let gatewayTimeout: HttpStatus = 504
    /// `505 HTTP Version Not Supported`.
    public static let httpVersionNotSupported: HttpStatus = 505
    /// `506 Variant Also Negotiates`.
    public static let variantAlsoNegotiates: HttpStatus = 506
    /// `507 Insufficient Storage`.
    public static let insufficientStorage: HttpStatus = 507
    /// `508 Loop Detected`.
    public static let loopDetected: HttpStatus = 508
    /// `510 Not Extended`.
    public static let notExtended: HttpStatus = 510
    /// `511 Network Authentication Required`.
    public static let networkAuthenticationRequired: HttpStatus = 511
}

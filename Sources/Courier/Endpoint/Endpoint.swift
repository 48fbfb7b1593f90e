import Foundation

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// One remote API described as a type, usually an `enum` with a case per call.
///
/// Only ``ClientErrorType``, ``subpath`` and ``method`` must be given; everything else has a default: the
/// provider's base URL, a plain `JSONEncoder`/`JSONDecoder`, no headers beyond `Accept: application/json` and
/// the body's `Content-Type`, no query parameters, the session's timeout and cache policy, and no mocked response.
///
/// The server is named either by the provider (`ApiProvider(baseUrl:)`, as in Microya 0.5 and later) or by the
/// endpoint's own ``baseUrl`` (as in Microya 0.4); both kinds of declaration compile unchanged.
///
/// Endpoints are `Sendable` because a provider hands them to plugins and transports on other threads.
public protocol Endpoint: Sendable {
    /// The body the server sends with a 4xx answer, decoded into ``ApiError/clientError(statusCode:clientError:)``.
    associatedtype ClientErrorType: Decodable & Sendable

    /// The URL that ``subpath`` is appended to, e.g. `https://api.example.com/v1`, for an endpoint that names its
    /// server itself.
    ///
    /// Optional: without it, the provider's ``ApiProvider/baseUrl`` names the server. When both are given, the
    /// provider's wins (a staging server, a test server). When neither is, the request fails with
    /// ``ApiError/invalidRequest(reason:)`` naming the endpoint, and nothing is sent.
    var baseUrl: URL { get }

    /// The path below ``baseUrl``, e.g. `"todos/3"`; Courier joins the two with exactly one slash and
    /// percent-encodes what a path cannot hold as it is (including `?` and `#`).
    var subpath: String { get }

    /// The HTTP method, with the body where the method has one.
    var method: HttpMethod { get }

    /// The request headers, laid over the defaults: `Accept: application/json` and the `Content-Type` of the body.
    /// A name here replaces a default in any letter case (`content-type` replaces the body's `Content-Type`); a
    /// name given twice in different letter cases fails the request, as HTTP names are case-insensitive.
    var headers: [String: String] { get }

    /// The query parameters, sent sorted by key (a dictionary has no order of its own) and percent-encoded
    /// outside RFC 3986's unreserved characters.
    var queryParameters: [String: QueryParameterValue] { get }

    /// The query parameters in the order they are sent; by default ``queryParameters`` sorted by key.
    ///
    /// Give this instead of ``queryParameters`` when the order matters: `[("q", "swift"), ("page", 2)]`.
    var orderedQueryParameters: [(key: String, value: QueryParameterValue)] { get }

    /// The most one sending may take (each retry has its own), from sending to the last byte of the answer, on
    /// every door: a request, a download, a stream, each connection of Server-Sent Events. Longer fails with
    /// ``ApiError/noResponseReceived(error:)`` (`URLError.timedOut`). The pipeline enforces it on the provider's
    /// scheduler, to the millisecond, over every transport and the mocks, and also against a server that sends its
    /// answer a byte at a time. `nil` (the default): no limit beyond ``idleTimeout``.
    var timeout: Duration? { get }

    /// The longest the server may stay silent: before the answer begins, and between two parts of it (a reader or a
    /// disk that holds a download or a stream back does not count). Longer fails with
    /// ``ApiError/noResponseReceived(error:)`` (`URLError.timedOut`). A download's or a stream's is kept by Courier
    /// on the provider's scheduler; for an answer collected in memory it is the request's `timeoutInterval`, which
    /// URLSession and libcurl keep (in whole seconds on Linux) and AsyncHTTPClient leaves to its client's read
    /// timeout. `nil` (the default): the transport's own, 60 seconds over URLSession and libcurl.
    var idleTimeout: Duration? { get }

    /// The request's cache policy; by default the protocol's (`.useProtocolCachePolicy`). With an ``HttpCache`` on
    /// the provider, its cache reads it: `.reloadIgnoringLocalCacheData` fetches anew, `.reloadRevalidatingCacheData`
    /// always revalidates, `.returnCacheDataElseLoad` takes a stored answer however stale, and
    /// `.returnCacheDataDontLoad` never asks the network (`504` when nothing is stored).
    var cachePolicy: URLRequest.CachePolicy { get }

    /// How the requests use the provider's ``HttpCache``, if it has one: ``Caching/standard`` by default.
    var caching: Caching { get }

    /// The largest response body accepted, in bytes (after decompression); a larger one fails the request with
    /// ``ApiError/responseBodyTooLarge(limit:)`` as soon as it is announced or reached, keeping memory bounded.
    var maximumResponseBodySize: Int { get }

    /// The TLS options of this endpoint's requests (trust roots, a client identity, the oldest TLS version), or
    /// `nil` for the transport's own; when given, they replace the transport's whole. A transport that cannot apply
    /// them refuses the request with ``ApiError/invalidRequest(reason:)`` and sends nothing.
    var tls: TlsOptions? { get }

    /// The decoder for 2xx bodies and ``ClientErrorType`` bodies.
    var decoder: JSONDecoder { get }

    /// The encoder for request bodies built from `Encodable` values.
    var encoder: JSONEncoder { get }

    /// The response a mocked provider answers with instead of calling the server (see ``MockingBehavior``).
    var mockedResponse: MockedResponse? { get }

    /// The endpoint's name in metrics and traces, e.g. `TodoApi.list`: the same for every request of one case,
    /// whatever its associated values, so that `/todos/1` and `/todos/2` make one metric series, not two.
    ///
    /// By default the type's name and the case's, without associated values (the case's name is read from the
    /// type's metadata, without reflecting on the value, and the whole name is made once per case); an endpoint that
    /// is not an `enum` gets its type's name alone. Give your own to name cases differently; keep it to a few values
    /// per endpoint type.
    var telemetryName: String { get }
}

/// Made once: a decoder or encoder per request would cost an allocation on every call.
private let defaultDecoder = JSONDecoder()
private let defaultEncoder = JSONEncoder()

/// What an endpoint that names no server returns as its ``Endpoint/baseUrl``; never sent to.
///
/// `URL(string:)` cannot fail for this literal; the fallback only spares a force unwrap.
let missingBaseUrl = URL(string: "courier:no-base-url") ?? URL(fileURLWithPath: "/courier-no-base-url")

extension Endpoint {
    /// None: the placeholder `courier:no-base-url`, which tells the provider to use its own
    /// ``ApiProvider/baseUrl``. A request is never sent to it.
    public var baseUrl: URL { missingBaseUrl }

    /// None beyond the defaults, `Accept: application/json` and the body's `Content-Type` (see ``HttpBody``).
    public var headers: [String: String] { [:] }

    /// No query parameters.
    public var queryParameters: [String: QueryParameterValue] { [:] }

    /// ``queryParameters`` sorted by key.
    public var orderedQueryParameters: [(key: String, value: QueryParameterValue)] {
        // By UTF-8 bytes: String's `<` treats canonically equivalent keys as equal, leaving their order open.
        queryParameters.sorted { $0.key.utf8.lexicographicallyPrecedes($1.key.utf8) }.map {
            (key: $0.key, value: $0.value)
        }
    }

    /// `nil`: no limit beyond the idle timeout.
    public var timeout: Duration? { nil }

    /// `nil`: the transport's own idle timeout.
    public var idleTimeout: Duration? { nil }

    /// `.useProtocolCachePolicy`.
    public var cachePolicy: URLRequest.CachePolicy { .useProtocolCachePolicy }

    /// RFC 9111's rules, with the cache's settings.
    public var caching: Caching { .standard }

    /// 16 MiB: far beyond a JSON answer, far below what would strain memory.
    public var maximumResponseBodySize: Int { 16 * 1024 * 1024 }

    /// `nil`: the transport's TLS options.
    public var tls: TlsOptions? { nil }

    /// A plain `JSONDecoder`, shared by all endpoints that do not name their own.
    ///
    /// Do not change the shared instance's settings; return a decoder of your own to decode differently.
    public var decoder: JSONDecoder { defaultDecoder }

    /// A plain `JSONEncoder`, shared by all endpoints that do not name their own.
    ///
    /// Do not change the shared instance's settings; return an encoder of your own to encode differently.
    public var encoder: JSONEncoder { defaultEncoder }

    /// No mocked response.
    public var mockedResponse: MockedResponse? { nil }
}

extension Endpoint {
    /// The type and case, e.g. `TodoApi.list(page: 1)`, as errors name an endpoint.
    var nameForMessages: String { "\(Self.self).\(self)" }
}

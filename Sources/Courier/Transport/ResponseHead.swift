import Foundation

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// An answer's status and headers, made into an `HTTPURLResponse` only when something asks for one.
///
/// On Linux, `HTTPURLResponse` parses `Content-Type` and other fields as it is made, which costs more than the rest of
/// Courier's work on a request (about 8 µs for a JSON answer's usual headers); decoding a body needs only the status.
/// Plugins, ``ApiProvider/fullResponse(on:decodeBodyTo:)`` and a live transport's delegate ask for the response, and
/// then it is made once.
struct ResponseHead: Sendable {
    /// The HTTP status, or `nil` for a response that is not HTTP.
    let statusCode: Int?
    /// What a provider's cache did for this answer, when it went through one: the same as its `Cache-Status`
    /// field, kept apart so that observing it reads no header.
    var cacheStatus: CacheStatus?
    /// How long the sending's phases took, when the transport measured them.
    var timings: SendingTimings?
    /// The parts, until the response is made; one allocation for all of it.
    private let storage: Locked<Storage>

    private enum Storage {
        case parts(url: URL, httpVersion: String, fields: any HeaderFieldSource)
        case made(URLResponse?)
    }

    /// A response that exists already, e.g. URLSession's.
    init(_ response: URLResponse) {
        statusCode = (response as? HTTPURLResponse)?.statusCode
        storage = Locked(.made(response))
    }

    /// An HTTP response to be made from its parts when first asked for.
    init(url: URL, statusCode: Int, httpVersion: String, headerFields: some HeaderFieldSource) {
        self.statusCode = statusCode
        storage = Locked(.parts(url: url, httpVersion: httpVersion, fields: headerFields))
    }

    /// The header fields, from the parts or from the response.
    var headerFields: [String: String] {
        storage.withLock { storage in
            switch storage {
            case .parts(_, _, let fields):
                return fields.headerFields
            case .made(let response):
                return HeaderFields.dictionary(of: response)
            }
        }
    }

    /// The URL the answer came from: after redirects, the last one's.
    var url: URL? {
        storage.withLock { storage in
            switch storage {
            case .parts(let url, _, _): url
            case .made(let response): response?.url
            }
        }
    }

    /// The same answer with `fields` in place of its header fields.
    func replacingFields(with fields: [String: String]) -> ResponseHead {
        storage.withLock { storage in
            switch storage {
            case .parts(let url, let httpVersion, _):
                return ResponseHead(
                    url: url,
                    statusCode: statusCode ?? 0,
                    httpVersion: httpVersion,
                    headerFields: fields
                )
            case .made(let response):
                let url = response?.url ?? URL(fileURLWithPath: "/")
                return ResponseHead(
                    url: url,
                    statusCode: statusCode ?? 0,
                    httpVersion: "HTTP/1.1",
                    headerFields: fields
                )
            }
        }
    }

    /// The response, made on the first call; `nil` only if Foundation refuses to make one from the parts.
    var response: URLResponse? {
        storage.withLock { storage in
            switch storage {
            case .made(let response):
                return response
            case .parts(let url, let httpVersion, let fields):
                let response = HTTPURLResponse(
                    url: url,
                    statusCode: statusCode ?? 0,
                    httpVersion: httpVersion,
                    headerFields: fields.headerFields
                )
                storage = .made(response)
                return response
            }
        }
    }
}

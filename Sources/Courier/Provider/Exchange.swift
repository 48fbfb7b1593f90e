import Foundation

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// One pass through the pipeline before decoding: the request as sent (if it could be built) and what came
/// back, in the shape plugins know as `urlSessionResult`.
struct Exchange: Sendable {
    var request: URLRequest?
    var data: Data?
    /// The status and headers; the `URLResponse` is made from them only when something asks for it.
    var head: ResponseHead?
    var error: Error?
    /// What took this sending's body, for a download or a stream: the pipeline discards it when the exchange does not
    /// reach the caller.
    var receiver: SendingReceiver?
    /// The request's observation, when its provider has an observing plugin; set when the outcome is delivered.
    var observation: RequestObservation?

    /// The response, made on first use.
    var response: URLResponse? { head?.response }

    init(request: URLRequest? = nil, data: Data? = nil, head: ResponseHead? = nil, error: Error? = nil) {
        self.request = request
        self.data = data
        self.head = head
        self.error = error
    }
}

/// A mocked provider found no mocked response; the pipeline reports it as
/// ``ApiError/emptyMockedResponse(endpoint:)``.
struct MissingMockedResponseError: Error, CustomStringConvertible {
    let endpoint: String
    var description: String { "No mocked response for \(endpoint)" }
}

/// A mocked response that cannot be made into an HTTP response; like a live transport failure after sending, the
/// pipeline reports it as ``ApiError/noResponseReceived(error:)``.
struct UnusableMockedResponseError: LocalizedError {
    let reason: String
    var errorDescription: String? { reason }
}

/// A download's file could not be written or moved into place; the pipeline reports it as
/// ``ApiError/fileError(url:error:)``.
struct FileError: Error, CustomStringConvertible {
    let url: URL
    let error: Error
    var description: String { "\(url.path): \(error)" }
}

/// A plugin failed the request; the pipeline reports it as ``ApiError/pluginFailed(plugin:error:)``.
struct PluginFailure: Error {
    let plugin: String
    let error: Error

    /// Names `plugin` by its type without generic arguments, e.g. `TokenRefreshPlugin`.
    init(by plugin: AnyObject, error: Error) {
        self.plugin = Self.name(of: plugin)
        self.error = error
    }

    /// A plugin's type name without generic arguments, e.g. `TokenRefreshPlugin`.
    static func name(of plugin: AnyObject) -> String {
        let name = String(describing: type(of: plugin))
        return name.split(separator: "<", maxSplits: 1).first.map(String.init) ?? name
    }
}

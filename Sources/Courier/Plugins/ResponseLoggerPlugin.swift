import Foundation

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// Hands the raw result of every request (data, response, error) to a closure before the caller gets it.
public final class ResponseLoggerPlugin<EndpointType: Endpoint>: Plugin<EndpointType>, @unchecked Sendable {
    /// It logs in `didPerformRequest`.
    override var hooks: PluginHooks { [.results] }

    private let logClosure: @Sendable (ApiProvider<EndpointType>.URLSessionResult) -> Void

    /// Creates the plugin with the closure that receives each raw result.
    public init(logClosure: @escaping @Sendable (ApiProvider<EndpointType>.URLSessionResult) -> Void) {
        self.logClosure = logClosure
    }

    override public func didPerformRequest<ResultType: Decodable>(
        urlSessionResult: ApiProvider<EndpointType>.URLSessionResult,
        typedResult: ApiProvider<EndpointType>.TypedResult<ResultType>,
        endpoint: EndpointType
    ) {
        logClosure(urlSessionResult)
    }
}

import Foundation

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// Hands every request, as it is about to be sent, to a closure (e.g. to print it).
public final class RequestLoggerPlugin<EndpointType: Endpoint>: Plugin<EndpointType>, @unchecked Sendable {
    /// It logs in `willPerformRequest` alone.
    override var hooks: PluginHooks { [] }

    private let logClosure: @Sendable (URLRequest) -> Void

    /// Creates the plugin with the closure that receives each request.
    public init(logClosure: @escaping @Sendable (URLRequest) -> Void) {
        self.logClosure = logClosure
    }

    override public func willPerformRequest(_ request: URLRequest, endpoint: EndpointType) {
        logClosure(request)
    }
}

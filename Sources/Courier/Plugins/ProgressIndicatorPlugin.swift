import Foundation

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// Shows an indicator while at least one request is in flight: `showIndicator` when the first starts,
/// `hideIndicator` when the last ends.
///
/// One plugin shared by several providers counts all their requests. The two closures are called in the order
/// of the transitions (never a hide overtaking the show before it), while the plugin holds its lock: keep them
/// short (e.g. `DispatchQueue.main.async { … }`) and do not start a request from inside them.
public final class ProgressIndicatorPlugin<EndpointType: Endpoint>: Plugin<EndpointType>, @unchecked Sendable {
    /// It counts in `willPerformRequest` and `didPerformRequest`.
    override public var implementedHooks: PluginHooks { [.didPerformRequest] }

    private let inFlight = Locked(0)
    private let showIndicator: @Sendable () -> Void
    private let hideIndicator: @Sendable () -> Void

    /// Creates the plugin with the closures that show and hide the indicator.
    public init(showIndicator: @escaping @Sendable () -> Void, hideIndicator: @escaping @Sendable () -> Void) {
        self.showIndicator = showIndicator
        self.hideIndicator = hideIndicator
    }

    override public func willPerformRequest(_ request: URLRequest, endpoint: EndpointType) {
        inFlight.withLock { count in
            count += 1
            if count == 1 { showIndicator() }
        }
    }

    override public func didPerformRequest<ResultType: Decodable>(
        urlSessionResult: ApiProvider<EndpointType>.URLSessionResult,
        typedResult: ApiProvider<EndpointType>.TypedResult<ResultType>,
        endpoint: EndpointType
    ) {
        // A request that could not be built was never announced by `willPerformRequest`.
        if case .failure(.invalidRequest) = typedResult { return }
        inFlight.withLock { count in
            count -= 1
            if count == 0 { hideIndicator() }
        }
    }
}

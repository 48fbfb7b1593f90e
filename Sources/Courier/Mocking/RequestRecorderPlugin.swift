import Foundation

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// Records every request its provider sends, in order, mocked or live: the endpoint and the final `URLRequest`.
///
/// Made for tests that assert what was sent without writing a plugin of their own:
/// ```swift
/// let recorder = RequestRecorderPlugin<TodoApi>()
/// let provider = ApiProvider<TodoApi>(plugins: [recorder], mockingBehavior: MockingBehavior())
/// _ = await provider.response(on: .delete(id: 3))
/// #expect(recorder.requests.map(\.urlRequest.httpMethod) == ["DELETE"])
/// ```
/// A request is recorded when plugins get ``Plugin/willPerformRequest(_:endpoint:)``, after every plugin's
/// ``Plugin/modifyRequest(_:endpoint:)``. One that could not be built is not recorded; one cancelled in the instant
/// between that hook and being handed to the network or the mocks is, although it never left.
public final class RequestRecorderPlugin<EndpointType: Endpoint>: Plugin<EndpointType>, @unchecked Sendable {
    /// It records in `willPerformRequest` alone.
    override public var implementedHooks: PluginHooks { [] }

    /// One sent request.
    public struct RecordedRequest: Sendable {
        /// The endpoint the request was built from.
        public let endpoint: EndpointType
        /// The request as sent, with the changes of all plugins.
        public let urlRequest: URLRequest
    }

    private let recorded = Locked<[RecordedRequest]>([])

    /// Creates a recorder with nothing recorded.
    override public init() {}

    /// The requests sent so far, oldest first.
    public var requests: [RecordedRequest] { recorded.withLock { $0 } }

    /// The endpoints of the requests sent so far, oldest first.
    public var endpoints: [EndpointType] { requests.map(\.endpoint) }

    /// Forgets the requests recorded so far.
    public func removeAll() {
        recorded.withLock { $0.removeAll() }
    }

    /// Records the request.
    override public func willPerformRequest(_ request: URLRequest, endpoint: EndpointType) {
        recorded.withLock { $0.append(RecordedRequest(endpoint: endpoint, urlRequest: request)) }
    }
}

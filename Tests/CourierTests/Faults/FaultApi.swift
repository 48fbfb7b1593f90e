import Courier
import CourierTestServer
import Foundation

/// Requests to a ``HostileServer``, one per ``Fault``.
struct FaultApi: Endpoint {
    typealias ClientErrorType = FaultMessage

    let fault: Fault
    let baseUrl: URL
    /// How long one sending may take. The faults that never end on their own (`silence`, `drip`: the server holds
    /// them until the client goes away) get a short one, which always ends them first; the others the hang guard,
    /// which only stops a hung test.
    var timeout: Duration?

    init(_ fault: Fault, on server: HostileServer, timeout: Duration? = nil) {
        self.fault = fault
        self.baseUrl = server.baseUrl(for: fault)
        self.timeout = timeout ?? (fault == .silence || fault == .drip ? .milliseconds(1_500) : HangGuard.duration)
    }

    var subpath: String { fault.path }

    /// `answerBeforeBody` needs a body that is still being sent when the answer comes: 4 MB is more than the
    /// loopback's socket buffers hold.
    var method: HttpMethod {
        fault == .answerBeforeBody
            ? .post(body: .data(Data(count: 4 << 20), contentType: "application/octet-stream")) : .get
    }
}

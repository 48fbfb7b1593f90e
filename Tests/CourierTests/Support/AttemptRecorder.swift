import Courier
import Foundation

/// Passes each attempt to a closure and proceeds; optionally answers with scripted decisions.
final class AttemptRecorder<EndpointType: Endpoint>: Plugin<EndpointType>, @unchecked Sendable {
    private let onAttempt: @Sendable (Attempt) -> Void

    init(_ onAttempt: @escaping @Sendable (Attempt) -> Void) {
        self.onAttempt = onAttempt
    }

    override func process(_ attempt: Attempt, endpoint: EndpointType) async -> AttemptDecision {
        onAttempt(attempt)
        return .proceed
    }
}

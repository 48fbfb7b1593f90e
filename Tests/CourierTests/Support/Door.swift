import Courier
import Foundation
import Testing

/// The three entry points into the pipeline; outcome tests run once through each.
enum Door: String, CaseIterable, Sendable, CustomTestStringConvertible {
    case completion
    case wait
    case async

    var testDescription: String { rawValue }
}

extension ApiProvider {
    /// Sends `endpoint` through `door` and returns what the caller got.
    ///
    /// The wait door blocks a thread of its own, not one of Swift concurrency's few cooperative threads, which
    /// the in-process test server needs to answer.
    func result<T: Decodable & Sendable>(
        through door: Door,
        on endpoint: EndpointType,
        decodeBodyTo type: T.Type
    ) async -> TypedResult<T> {
        switch door {
        case .completion:
            await withCheckedContinuation { continuation in
                performRequest(on: endpoint, decodeBodyTo: type) { continuation.resume(returning: $0) }
            }
        case .wait:
            await withCheckedContinuation { continuation in
                Thread.detachNewThread {
                    continuation.resume(returning: self.performRequestAndWait(on: endpoint, decodeBodyTo: type))
                }
            }
        case .async:
            await response(on: endpoint, decodeBodyTo: type)
        }
    }
}

import Foundation

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

/// Why a request could not be built or was refused before anything was sent (e.g. by a transport asked for TLS
/// options it cannot apply); the pipeline reports it as ``ApiError/invalidRequest(reason:)``, which plugins never
/// retry.
public struct InvalidRequestError: Error, CustomStringConvertible {
    /// What was wrong, naming the offending input.
    public let reason: String

    /// Creates the error.
    /// - Parameter reason: What was wrong, naming the offending input.
    public init(reason: String) {
        self.reason = reason
    }

    public var description: String { reason }
}

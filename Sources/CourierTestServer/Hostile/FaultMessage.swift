import Foundation

/// The JSON error body the hostile server sends with its `4xx` answers.
public struct FaultMessage: Decodable, Equatable, Sendable {
    /// What was wrong, e.g. `too large`.
    public let message: String

    /// A message saying `message`.
    public init(message: String) {
        self.message = message
    }
}

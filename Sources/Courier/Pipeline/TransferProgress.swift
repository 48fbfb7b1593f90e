/// How far a request body has gone out, or a response body has come in.
public struct TransferProgress: Sendable, Hashable, CustomStringConvertible {
    /// Which way the bytes go.
    public enum Direction: String, Sendable, Hashable {
        /// The request body, to the server.
        case upload
        /// The response body, from the server.
        case download
    }

    /// Which way the bytes go.
    public let direction: Direction
    /// The bytes sent or received so far (for a resumed download, counting the part that was already on disk).
    public let completedBytes: Int64
    /// The size of the whole body, when the request body's size or the response's `Content-Length` says it;
    /// `nil` when unknown (a chunked or compressed answer).
    public let expectedBytes: Int64?

    /// Creates a report.
    public init(direction: Direction, completedBytes: Int64, expectedBytes: Int64?) {
        self.direction = direction
        self.completedBytes = completedBytes
        self.expectedBytes = expectedBytes
    }

    /// `completedBytes` over `expectedBytes`, from 0 to 1, or `nil` when the size is unknown.
    public var fractionCompleted: Double? {
        guard let expectedBytes, expectedBytes > 0 else { return nil }
        return min(1, Double(completedBytes) / Double(expectedBytes))
    }

    public var description: String {
        "\(direction) \(completedBytes) of \(expectedBytes.map(String.init) ?? "unknown") bytes"
    }
}

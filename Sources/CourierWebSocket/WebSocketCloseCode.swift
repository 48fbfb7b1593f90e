#if WebSocket
/// The status code of a WebSocket close (RFC 6455, section 7.4): the standard's, or an application's own (3000-4999).
public struct WebSocketCloseCode: RawRepresentable, Sendable, Hashable, CustomStringConvertible {
    /// The code's number.
    public let rawValue: UInt16

    /// The code numbered `rawValue`.
    public init(rawValue: UInt16) {
        self.rawValue = rawValue
    }

    /// 1000: the purpose of the connection was fulfilled.
    public static let normalClosure = Self(rawValue: 1000)
    /// 1001: an end is going away, e.g. a server shutting down or a client whose task was cancelled.
    public static let goingAway = Self(rawValue: 1001)
    /// 1002: an end broke the protocol.
    public static let protocolError = Self(rawValue: 1002)
    /// 1003: an end received a kind of data it cannot take (here: a message that did not decode).
    public static let unsupportedData = Self(rawValue: 1003)
    /// 1006: never sent; the connection ended without a close frame that had a code (it was dropped).
    public static let abnormalClosure = Self(rawValue: 1006)
    /// 1007: a message's data did not match its type (a text message that is not UTF-8).
    public static let invalidPayload = Self(rawValue: 1007)
    /// 1008: a message broke the receiver's policy.
    public static let policyViolation = Self(rawValue: 1008)
    /// 1009: a message was too large for the receiver.
    public static let messageTooBig = Self(rawValue: 1009)
    /// 1011: the server met a condition that kept it from going on.
    public static let internalError = Self(rawValue: 1011)
    /// 1012: the server is restarting; a client may connect again (IANA's registry).
    public static let serviceRestart = Self(rawValue: 1012)
    /// 1013: the server is overloaded for now; a client may connect again later (IANA's registry).
    public static let tryAgainLater = Self(rawValue: 1013)

    /// The number, with the standard's name where it has one, e.g. `1000 (normal closure)`.
    public var description: String {
        let names: [UInt16: String] = [
            1000: "normal closure", 1001: "going away", 1002: "protocol error", 1003: "unsupported data",
            1006: "abnormal closure", 1007: "invalid payload", 1008: "policy violation", 1009: "message too big",
            1011: "internal error", 1012: "service restart", 1013: "try again later",
        ]
        return names[rawValue].map { "\(rawValue) (\($0))" } ?? "\(rawValue)"
    }
}
#endif

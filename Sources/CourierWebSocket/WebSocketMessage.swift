#if WebSocket
import Foundation

/// One whole WebSocket message, as it arrived or is to be sent: text, or bytes.
///
/// Use it as a connection's incoming or outgoing type to work with raw messages (another format than JSON, or
/// messages of several shapes); any other type is JSON, read from a text or a binary message and sent as text.
public enum WebSocketMessage: Sendable, Hashable, Codable {
    /// A text message (UTF-8 on the wire).
    case text(String)
    /// A binary message.
    case binary(Data)
}

extension WebSocketMessage {
    /// The payload's size in bytes.
    var size: Int {
        switch self {
        case .text(let text): text.utf8.count
        case .binary(let bytes): bytes.count
        }
    }
}
#endif

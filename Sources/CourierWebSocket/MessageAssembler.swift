#if WebSocket
import Foundation
import NIOCore
import WSCore

/// Joins a message's frames into the whole message, holding no more than the size limit.
struct MessageAssembler {
    private let limit: Int
    private var opcode: WebSocketDataFrame.Opcode?
    private var bytes = ByteBuffer()

    init(limit: Int) {
        self.limit = limit
    }

    /// Takes one frame; returns the message it completes, if it is the last of one.
    mutating func add(_ frame: WebSocketDataFrame) throws(Violation) -> WebSocketMessage? {
        switch frame.opcode {
        case .text, .binary:
            guard opcode == nil else {
                throw Violation(.protocolViolation(reason: "a message began before the one before it had ended"))
            }
            opcode = frame.opcode
            bytes.clear()
        case .continuation:
            guard opcode != nil else {
                throw Violation(.protocolViolation(reason: "a continuation frame came with no message begun"))
            }
        }
        guard frame.data.readableBytes <= limit - bytes.readableBytes else {
            throw Violation(.messageTooLarge(limit: limit), closingWith: .messageTooBig)
        }
        var part = frame.data
        bytes.writeBuffer(&part)
        guard frame.fin else { return nil }
        defer { opcode = nil }
        let data = Data(bytes.readableBytesView)
        guard opcode == .text else { return .binary(data) }
        guard let text = String(data: data, encoding: .utf8) else {
            throw Violation(.protocolViolation(reason: "a text message is not UTF-8"), closingWith: .invalidPayload)
        }
        return .text(text)
    }
}

/// A failure of the server's, and the code Courier closes the connection with for it.
struct Violation: Error {
    let error: WebSocketError
    let code: WebSocketCloseCode

    init(_ error: WebSocketError, closingWith code: WebSocketCloseCode = .protocolError) {
        self.error = error
        self.code = code
    }
}
#endif

import Foundation
import Hummingbird

/// `GET /gzip-zeros?count=N`: N zero bytes sent gzip-compressed (`Content-Encoding: gzip`), about 200 times
/// smaller on the wire: a body that only grows large once the client decompresses it.
enum GzipRoute {
    static func add(to router: Router<BasicRequestContext>) {
        router.get("/gzip-zeros") { request, _ in
            let count = Int(request.uri.queryParameters["count"] ?? "") ?? 0
            let body = gzipOfZeros(count: count)
            return Response(
                status: .ok,
                headers: [.contentType: "application/octet-stream", .contentEncoding: "gzip"],
                body: .init(byteBuffer: ByteBuffer(bytes: body))
            )
        }
    }

    /// A gzip member (RFC 1952) whose one fixed-Huffman deflate block (RFC 1951) is a literal zero followed by
    /// back-references of 258 bytes at distance 1, and literal zeros for the rest.
    static func gzipOfZeros(count: Int) -> [UInt8] {
        var bits = BitWriter()
        bits.write(1, count: 1)  // BFINAL
        bits.write(1, count: 2)  // BTYPE 01: fixed Huffman codes
        var left = count
        if left > 0 {
            bits.writeCode(0x30, length: 8)  // literal 0
            left -= 1
        }
        while left >= 258 {
            bits.writeCode(0xC5, length: 8)  // length code 285: 258 bytes
            bits.writeCode(0, length: 5)  // distance code 0: distance 1
            left -= 258
        }
        for _ in 0..<left {
            bits.writeCode(0x30, length: 8)
        }
        bits.writeCode(0, length: 7)  // end of block
        let header: [UInt8] = [0x1F, 0x8B, 8, 0, 0, 0, 0, 0, 0, 0xFF]
        let crc = crcOfZeros(count: count)
        let size = UInt32(truncatingIfNeeded: count)
        return header + bits.finished + littleEndian(crc) + littleEndian(size)
    }

    /// The CRC-32 of `count` zero bytes.
    private static func crcOfZeros(count: Int) -> UInt32 {
        var crc: UInt32 = 0xFFFF_FFFF
        for _ in 0..<count {
            for _ in 0..<8 {
                crc = (crc & 1) == 1 ? (crc >> 1) ^ 0xEDB8_8320 : crc >> 1
            }
        }
        return ~crc
    }

    private static func littleEndian(_ value: UInt32) -> [UInt8] {
        (0..<4).map { UInt8(truncatingIfNeeded: value >> (8 * $0)) }
    }

    /// Packs bits the way deflate does: least significant bit of each byte first.
    private struct BitWriter {
        var bytes: [UInt8] = []
        private var current: UInt8 = 0
        private var used = 0

        /// A value, least significant bit first (header fields, extra bits).
        mutating func write(_ value: UInt32, count: Int) {
            for index in 0..<count {
                append(bit: (value >> index) & 1)
            }
        }

        /// A Huffman code, most significant bit first.
        mutating func writeCode(_ code: UInt32, length: Int) {
            for index in stride(from: length - 1, through: 0, by: -1) {
                append(bit: (code >> index) & 1)
            }
        }

        private mutating func append(bit: UInt32) {
            current |= UInt8(bit) << used
            used += 1
            if used == 8 {
                bytes.append(current)
                current = 0
                used = 0
            }
        }

        /// The bytes, the last one padded with zero bits.
        var finished: [UInt8] { used == 0 ? bytes : bytes + [current] }
    }
}

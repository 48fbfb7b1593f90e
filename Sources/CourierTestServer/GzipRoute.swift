import Foundation
import Hummingbird

/// `GET /gzip-zeros?count=N`: N zero bytes sent gzip-compressed (`Content-Encoding: gzip`), about 200 times
/// smaller on the wire: a body that only grows large once the client decompresses it.
enum GzipRoute {
    static func add(to router: Router<TestRequestContext>) {
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
    ///
    /// Built in whole bytes where it can: eight back-references are 104 bits, so once the writer is on a byte
    /// boundary they repeat as the same 13 bytes. Hundreds of MiB take milliseconds, which matters because a route
    /// runs on Swift concurrency's few threads that every in-process server of a test run shares.
    static func gzipOfZeros(count: Int) -> [UInt8] {
        var bits = BitWriter()
        bits.write(1, count: 1)  // BFINAL
        bits.write(1, count: 2)  // BTYPE 01: fixed Huffman codes
        var literals = 0
        var references = 0
        if count > 0 {
            literals = 1 + (count - 1) % 258
            references = (count - 1) / 258
            bits.writeLiteralZero()
        }
        while references > 0 && !bits.isOnByteBoundary {
            bits.writeReference()
            references -= 1
        }
        if references >= 8 {
            var block = BitWriter()
            for _ in 0..<8 { block.writeReference() }
            let repeats = references / 8
            bits.appendWholeBytes(block.finished, times: repeats)
            references -= 8 * repeats
        }
        for _ in 0..<references { bits.writeReference() }
        for _ in 1..<max(literals, 1) { bits.writeLiteralZero() }
        bits.writeCode(0, length: 7)  // end of block
        let header: [UInt8] = [0x1F, 0x8B, 8, 0, 0, 0, 0, 0, 0, 0xFF]
        let crc = crcOfZeros(count: count)
        let size = UInt32(truncatingIfNeeded: count)
        return header + bits.finished + littleEndian(crc) + littleEndian(size)
    }

    /// The CRC-32 of `count` zero bytes, in logarithmic time: a zero bit only shifts the register, a linear map
    /// over GF(2) that is raised to the power `8 × count` by squaring (as zlib's `crc32_combine` does).
    static func crcOfZeros(count: Int) -> UInt32 {
        func times(_ matrix: [UInt32], _ vector: UInt32) -> UInt32 {
            var sum: UInt32 = 0
            var vector = vector
            var column = 0
            while vector != 0 {
                if vector & 1 == 1 { sum ^= matrix[column] }
                vector >>= 1
                column += 1
            }
            return sum
        }
        // Column i is where one zero bit takes register bit i: bit 0 feeds the polynomial back, the rest shift down.
        var power = [UInt32(0xEDB8_8320)] + (1..<32).map { UInt32(1) << ($0 - 1) }
        var crc: UInt32 = 0xFFFF_FFFF
        var bitsLeft = UInt64(count) * 8
        while bitsLeft > 0 {
            if bitsLeft & 1 == 1 { crc = times(power, crc) }
            power = power.map { times(power, $0) }
            bitsLeft >>= 1
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

        var isOnByteBoundary: Bool { used == 0 }

        mutating func writeLiteralZero() {
            writeCode(0x30, length: 8)
        }

        /// 258 bytes again, from 1 byte back: length code 285, distance code 0.
        mutating func writeReference() {
            writeCode(0xC5, length: 8)
            writeCode(0, length: 5)
        }

        /// `block` `times` times over; only on a byte boundary.
        mutating func appendWholeBytes(_ block: [UInt8], times: Int) {
            bytes.reserveCapacity(bytes.count + block.count * times)
            for _ in 0..<times { bytes.append(contentsOf: block) }
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

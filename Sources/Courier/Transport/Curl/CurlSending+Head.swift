#if canImport(CCourierCurl)
import CLibcurl
import Foundation

/// Reading the head libcurl hands over line by line, on the engine's thread.
extension CurlSending {
    /// One line of a head: a status line begins a head (an informational one, a redirect's, the final one), an empty
    /// line ends it.
    func takeHeaderLine(_ line: UnsafeRawBufferPointer) -> Bool {
        // Stopped already: nothing more is read.
        if stopReason != nil { return false }
        lastActivity = CurlClock.now()
        // After the final head: trailer fields of a chunked body, which no transport hands on.
        guard !headTaken else { return true }
        headerBytes += line.count
        if line.starts(with: Self.httpPrefix) {
            readStatusLine(line)
            return true
        }
        var end = line.count
        while end > 0, line[end - 1] == UInt8(ascii: "\n") || line[end - 1] == UInt8(ascii: "\r") { end -= 1 }
        guard end > 0 else { return headEnded() }
        guard let colon = line[..<end].firstIndex(of: UInt8(ascii: ":")), colon > 0,
            HeaderFields.isToken(line[..<colon]),
            !line[(colon + 1)..<end].contains(where: Self.isControlByte)
        else {
            // libcurl reads on past a field that breaks HTTP's grammar; NIO and FoundationNetworking refuse it.
            stopReason = MalformedResponse.error("the answer has a header field that breaks HTTP's grammar", url: url)
            return false
        }
        // Trimmed byte by byte: a `CharacterSet` cost more than the rest of reading the line.
        var valueStart = colon + 1
        while valueStart < end, Self.isBlank(line[valueStart]) { valueStart += 1 }
        while end > valueStart, Self.isBlank(line[end - 1]) { end -= 1 }
        fields.append(
            name: UnsafeRawBufferPointer(rebasing: line[..<colon]),
            value: UnsafeRawBufferPointer(rebasing: line[valueStart..<end])
        )
        return true
    }

    private static let httpPrefix = Array("HTTP/".utf8)

    /// Bytes a field value may not hold (RFC 9110, section 5.5): controls other than a tab.
    private static func isControlByte(_ byte: UInt8) -> Bool {
        (byte < 0x20 && byte != UInt8(ascii: "\t")) || byte == 0x7f
    }

    private static func isBlank(_ byte: UInt8) -> Bool { byte == UInt8(ascii: " ") || byte == UInt8(ascii: "\t") }

    /// `HTTP/1.1 200 OK`: the version and the three digits of the status (libcurl has checked the line's form).
    private func readStatusLine(_ line: UnsafeRawBufferPointer) {
        fields.removeAll()
        let space = line.firstIndex(of: UInt8(ascii: " ")) ?? line.count
        let version = String(decoding: UnsafeRawBufferPointer(rebasing: line[..<space]), as: UTF8.self)
        httpVersion = version == "HTTP/2" ? "HTTP/2.0" : version
        var code = 0
        var index = space + 1
        while index < line.count, (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(line[index]), code < 1_000 {
            code = code * 10 + Int(line[index] - UInt8(ascii: "0"))
            index += 1
        }
        statusCode = code
    }

    /// The end of a head: the final one goes to the receiver (or sets up the collector); an informational head, or
    /// a redirect that libcurl or the exchange's chain follows, is passed over.
    private func headEnded() -> Bool {
        if (100..<200).contains(statusCode) { return true }
        if CurlRedirects.follows(statusCode: statusCode, location: field("Location")) {
            // libcurl follows those of a `GET` or a `HEAD`, which have no body to send again.
            if !libcurlFollowsRedirects {
                redirect = CurlRedirect(statusCode: statusCode, location: field("Location") ?? "")
            }
            return true
        }
        headTaken = true
        do {
            if let problem = MalformedResponse.framingProblem(
                contentLength: field("Content-Length"),
                transferEncoding: field("Transfer-Encoding"),
                statusCode: statusCode,
                isHead: isHead
            ) {
                throw MalformedResponse.error(problem, url: url)
            }
            if let receiver {
                try receiver.receiveHead(statusCode: statusCode, headerFields: fields.headerFields)
            } else {
                let length = HeaderFields.announcedLength(
                    contentLength: field("Content-Length"),
                    contentEncoding: field("Content-Encoding")
                )
                try body.expect(announced: length, isHead: isHead)
            }
            return true
        } catch {
            stopReason = error
            return false
        }
    }

    private func field(_ name: String) -> String? {
        fields.value(of: name)
    }
}
#endif

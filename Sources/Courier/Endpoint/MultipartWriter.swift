import Foundation

/// Writes a `multipart/form-data` body (RFC 7578), into memory or into a temporary file.
///
/// File parts are copied in chunks, so writing to a file never holds a whole file in memory. The boundary is
/// random, and is chosen again in the rare case that it occurs in a part's content, so it cannot appear there.
struct MultipartWriter {
    let parts: [MultipartPart]

    static let chunkSize = 1 << 20

    /// The body in memory; file parts are read whole.
    func data() throws(InvalidRequestError) -> (body: Data, boundary: String) {
        try withFreshBoundary { boundary throws(InvalidRequestError) in
            var body = Data()
            try write(boundary: boundary) { body.append($0) }
            return (body, boundary)
        }
    }

    /// The body in a new temporary file, which the caller deletes once it is sent.
    func temporaryFile() throws(InvalidRequestError) -> (file: URL, boundary: String) {
        let file = FileManager.default.temporaryDirectory.appendingPathComponent(
            "courier-multipart-\(UUID().uuidString)"
        )
        return try withFreshBoundary { boundary throws(InvalidRequestError) in
            guard FileManager.default.createFile(atPath: file.path, contents: nil),
                let output = try? FileHandle(forWritingTo: file)
            else {
                throw InvalidRequestError(reason: "the multipart body could not be written to \(file.path)")
            }
            defer { try? output.close() }
            do throws(InvalidRequestError) {
                try write(boundary: boundary) { chunk throws(InvalidRequestError) in
                    do { try output.write(contentsOf: chunk) } catch {
                        throw InvalidRequestError(
                            reason: "the multipart body could not be written to \(file.path): \(error)"
                        )
                    }
                }
            } catch {
                try? FileManager.default.removeItem(at: file)
                throw error
            }
            return (file, boundary)
        }
    }

    /// Runs `write` with a new random boundary until one does not occur in the content (at most a few times).
    private func withFreshBoundary<Result>(
        _ write: (String) throws(InvalidRequestError) -> Result
    ) throws(InvalidRequestError) -> Result {
        for _ in 0..<4 {
            let boundary = "courier-" + UUID().uuidString.replacingOccurrences(of: "-", with: "").lowercased()
            do {
                return try write(boundary)
            } catch let error where error.reason == BoundaryInContent.reason {
                continue
            }
        }
        throw InvalidRequestError(reason: "no multipart boundary could be found that does not occur in the parts")
    }

    private enum BoundaryInContent {
        static let reason = "the boundary occurs in the content"
    }

    private func write(
        boundary: String,
        to output: (Data) throws(InvalidRequestError) -> Void
    ) throws(InvalidRequestError) {
        let delimiter = Data("--\(boundary)".utf8)
        for part in parts {
            try output(try header(of: part, boundary: boundary))
            switch part.content {
            case .text(let text):
                try output(try checked(Data(text.utf8), against: delimiter, carry: Data()).chunk)
            case .data(let data):
                try output(try checked(data, against: delimiter, carry: Data()).chunk)
            case .file(let url):
                try copy(url, part: part, delimiter: delimiter, to: output)
            }
            try output(Data("\r\n".utf8))
        }
        try output(Data("--\(boundary)--\r\n".utf8))
    }

    private func copy(
        _ url: URL,
        part: MultipartPart,
        delimiter: Data,
        to output: (Data) throws(InvalidRequestError) -> Void
    ) throws(InvalidRequestError) {
        guard let input = try? FileHandle(forReadingFrom: url) else {
            throw InvalidRequestError(reason: "the file \(url.path) of multipart part \"\(part.name)\" cannot be read")
        }
        defer { try? input.close() }
        var carry = Data()
        while true {
            let chunk: Data
            do {
                chunk = try input.read(upToCount: Self.chunkSize) ?? Data()
            } catch {
                throw InvalidRequestError(reason: "the file \(url.path) could not be read to the end: \(error)")
            }
            guard !chunk.isEmpty else { return }
            let checked = try checked(chunk, against: delimiter, carry: carry)
            try output(checked.chunk)
            carry = checked.carry
        }
    }

    /// `chunk` unchanged, once it is known not to contain `delimiter`, also across the end of the previous chunk
    /// (`carry`, its last bytes); returns the bytes to carry into the next check.
    private func checked(
        _ chunk: Data,
        against delimiter: Data,
        carry: Data
    ) throws(InvalidRequestError) -> (chunk: Data, carry: Data) {
        let window = carry + chunk
        if window.range(of: delimiter) != nil { throw InvalidRequestError(reason: BoundaryInContent.reason) }
        return (chunk, Data(window.suffix(delimiter.count - 1)))
    }

    private func header(of part: MultipartPart, boundary: String) throws(InvalidRequestError) -> Data {
        var header = "--\(boundary)\r\nContent-Disposition: form-data; name=\"\(Self.escaped(part.name))\""
        if let filename = part.filename {
            header += "; filename=\"\(Self.escaped(filename))\""
        }
        header += "\r\n"
        if let mediaType = part.mediaType {
            guard !mediaType.unicodeScalars.contains(where: { $0 == "\r" || $0 == "\n" || $0 == "\0" }) else {
                throw InvalidRequestError(
                    reason: "the media type of multipart part \"\(part.name)\" contains CR, LF or NUL"
                )
            }
            header += "Content-Type: \(mediaType)\r\n"
        }
        return Data((header + "\r\n").utf8)
    }

    /// What browsers do to names and file names in part headers (WHATWG HTML, multipart/form-data encoding).
    static func escaped(_ value: String) -> String {
        value.replacingOccurrences(of: "\r", with: "%0D")
            .replacingOccurrences(of: "\n", with: "%0A")
            .replacingOccurrences(of: "\"", with: "%22")
    }
}

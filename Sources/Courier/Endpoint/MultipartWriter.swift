import Foundation

/// Writes a `multipart/form-data` body (RFC 7578), into memory or into a temporary file.
///
/// File parts are copied in chunks, so writing to a file never holds a whole file in memory. The boundary is
/// random, and is chosen again in the rare case that it occurs in a part's content, so it cannot appear there.
struct MultipartWriter {
    let parts: [MultipartPart]
    var makeBoundary: () -> String = {
        "courier-" + UUID().uuidString.replacingOccurrences(of: "-", with: "").lowercased()
    }

    static let chunkSize = 1 << 20

    /// Why one attempt at writing stopped.
    private enum Failure: Error {
        case boundaryInContent
        case invalid(InvalidRequestError)
    }

    /// The body in memory; file parts are read whole.
    func data() throws(InvalidRequestError) -> (body: Data, boundary: String) {
        try withFreshBoundary { boundary throws(Failure) in
            var body = Data()
            try write(boundary: boundary) { body.append($0) }
            return (body, boundary)
        }
    }

    /// The body in a new temporary file readable by its owner only, named after its boundary; the caller deletes
    /// it once it is sent.
    func temporaryFile() throws(InvalidRequestError) -> (file: URL, boundary: String) {
        try withFreshBoundary { boundary throws(Failure) in
            let file = Self.temporaryFile(for: boundary)
            guard
                FileManager.default.createFile(
                    atPath: file.path,
                    contents: nil,
                    attributes: [.posixPermissions: 0o600]
                ),
                let output = try? FileHandle(forWritingTo: file)
            else {
                throw .invalid(InvalidRequestError(reason: "the multipart body could not be written to \(file.path)"))
            }
            defer { try? output.close() }
            do throws(Failure) {
                try write(boundary: boundary) { chunk throws(Failure) in
                    do { try output.write(contentsOf: chunk) } catch {
                        let reason = "the multipart body could not be written to \(file.path): \(error)"
                        throw .invalid(InvalidRequestError(reason: reason))
                    }
                }
            } catch {
                try? FileManager.default.removeItem(at: file)
                throw error
            }
            return (file, boundary)
        }
    }

    /// Where the body with `boundary` is written.
    static func temporaryFile(for boundary: String) -> URL {
        FileManager.default.temporaryDirectory.appendingPathComponent("courier-multipart-\(boundary)")
    }

    /// Runs `write` with a new boundary until one does not occur in the content (at most a few times).
    private func withFreshBoundary<Result>(
        _ write: (String) throws(Failure) -> Result
    ) throws(InvalidRequestError) -> Result {
        guard !parts.isEmpty else {
            throw InvalidRequestError(reason: "a multipart body needs at least one part")
        }
        for _ in 0..<4 {
            do throws(Failure) {
                return try write(makeBoundary())
            } catch {
                switch error {
                case .boundaryInContent: continue
                case .invalid(let invalid): throw invalid
                }
            }
        }
        throw InvalidRequestError(reason: "no multipart boundary could be found that does not occur in the parts")
    }

    private func write(boundary: String, to output: (Data) throws(Failure) -> Void) throws(Failure) {
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
        to output: (Data) throws(Failure) -> Void
    ) throws(Failure) {
        guard url.isFileURL, let input = try? FileHandle(forReadingFrom: url) else {
            let reason = "the file \(url.path) of multipart part \(RequestBuilder.quoted(part.name)) cannot be read"
            throw .invalid(InvalidRequestError(reason: reason))
        }
        defer { try? input.close() }
        var carry = Data()
        while true {
            let chunk: Data
            do {
                chunk = try input.read(upToCount: Self.chunkSize) ?? Data()
            } catch {
                throw .invalid(
                    InvalidRequestError(reason: "the file \(url.path) could not be read to the end: \(error)")
                )
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
    ) throws(Failure) -> (chunk: Data, carry: Data) {
        let window = carry + chunk
        if window.range(of: delimiter) != nil { throw .boundaryInContent }
        return (chunk, Data(window.suffix(delimiter.count - 1)))
    }

    private func header(of part: MultipartPart, boundary: String) throws(Failure) -> Data {
        var header = "--\(boundary)\r\nContent-Disposition: form-data; name=\"\(Self.escaped(part.name))\""
        if let filename = part.filename {
            header += "; filename=\"\(Self.escaped(filename))\""
        }
        header += "\r\n"
        if let mediaType = part.mediaType {
            guard !RequestBuilder.containsLineBreakOrNul(mediaType) else {
                let reason =
                    "the media type of multipart part \(RequestBuilder.quoted(part.name)) contains CR, LF or NUL"
                throw .invalid(InvalidRequestError(reason: reason))
            }
            header += "Content-Type: \(mediaType)\r\n"
        }
        return Data((header + "\r\n").utf8)
    }

    /// The escapes of the HTML standard's multipart/form-data encoding for names and file names: `"`, CR and LF as
    /// `%22`, `%0D`, `%0A`, so they cannot end the quoted string or the header line. (Unlike a browser, line
    /// breaks are not first normalized to CRLF: Courier sends what it was given.)
    static func escaped(_ value: String) -> String {
        var escaped = ""
        for scalar in value.unicodeScalars {
            switch scalar {
            case "\r": escaped += "%0D"
            case "\n": escaped += "%0A"
            case "\"": escaped += "%22"
            default: escaped.unicodeScalars.append(scalar)
            }
        }
        return escaped
    }
}

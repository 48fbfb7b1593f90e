#if DEBUG
@testable import Courier
import Foundation

extension FuzzTarget {
    /// A `multipart/form-data` body read back by its boundary: the same parts, each with its bytes unchanged and its
    /// name and file name as ``MultipartWriter/escaped(_:)`` writes them; the boundary never occurs inside a part.
    ///
    /// Input: per part a name, its content and a file name, separated by NUL bytes; an empty file name makes a text
    /// part, else a file part whose media type follows the file name after a byte 1 (inferred when there is none).
    static let multipart = FuzzTarget(name: "multipart") { input in
        let pieces = FuzzInput.pieces(input)
        let parts = stride(from: 0, to: pieces.count - 2, by: 3).map { index in
            multipartPart(name: pieces[index], content: pieces[index + 1], file: pieces[index + 2])
        }
        let refusable =
            parts.isEmpty || parts.contains { $0.mediaType.map(RequestBuilder.containsLineBreakOrNul) ?? false }
        let body: Data
        let boundary: String
        do throws(InvalidRequestError) {
            (body, boundary) = try MultipartWriter(parts: parts).data()
        } catch {
            guard refusable else { preconditionFailure("MultipartWriter refused the parts \(parts): \(error.reason)") }
            return
        }
        if refusable { preconditionFailure("MultipartWriter wrote the parts \(parts), which it must refuse") }
        let read = MultipartBody.parts(of: body, boundary: boundary)
        guard let read, read.count == parts.count else {
            preconditionFailure(
                "the body of \(parts) reads back as \(read.map { "\($0.count) parts" } ?? "nothing") "
                    + "with the boundary \(boundary): hex \(FuzzInput.hex(body))"
            )
        }
        for (part, (header, content)) in zip(parts, read) {
            let delimiter = Data("--\(boundary)".utf8)
            if content.range(of: delimiter) != nil {
                preconditionFailure("the boundary \(boundary) occurs in the content of \(part)")
            }
            if content != expectedContent(of: part) || !FuzzInput.same(header, expectedHeader(of: part)) {
                preconditionFailure(
                    "the part \(part) reads back as header \(header.debugDescription) and content "
                        + "hex \(FuzzInput.hex(content))"
                )
            }
        }
    }

    private static func multipartPart(
        name: ArraySlice<UInt8>,
        content: ArraySlice<UInt8>,
        file: ArraySlice<UInt8>
    ) -> MultipartPart {
        guard !file.isEmpty else { return .text(name: FuzzInput.text(name), value: FuzzInput.text(content)) }
        let mediaTypeStart = file.firstIndex(of: 1)
        return .data(
            name: FuzzInput.text(name),
            data: Data(content),
            filename: FuzzInput.text(file[..<(mediaTypeStart ?? file.endIndex)]),
            mediaType: mediaTypeStart.map { FuzzInput.text(file[($0 + 1)...]) }
        )
    }

    private static func expectedContent(of part: MultipartPart) -> Data {
        switch part.content {
        case .text(let text): Data(text.utf8)
        case .data(let data): data
        case .file: Data()
        }
    }

    /// The part's header lines, names escaped as the writer promises.
    private static func expectedHeader(of part: MultipartPart) -> String {
        var header = "Content-Disposition: form-data; name=\"\(MultipartWriter.escaped(part.name))\""
        if let filename = part.filename { header += "; filename=\"\(MultipartWriter.escaped(filename))\"" }
        if let mediaType = part.mediaType { header += "\r\nContent-Type: \(mediaType)" }
        return header
    }
}
#endif

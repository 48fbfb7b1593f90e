import Foundation

/// A file for Microya's multipart door, ``ApiProvider/multipartPublisher(media:params:on:decodeBodyTo:)``.
///
/// Courier's own spelling is a ``MultipartPart`` in the endpoint's body (`.post(body: .multipart([…]))`). Unlike
/// Microya, which read the file whole, named every file `<random number>.jpeg` and took a file's extension for its
/// type, a model sends the file's own name and a real media type, and a file is streamed from disk. A file that
/// cannot be read fails the request with ``ApiError/invalidRequest(reason:)`` instead of sending an empty part.
public struct MultipartMediaModel: Sendable {
    /// The part this model is sent as.
    public let part: MultipartPart

    /// A file read from disk while sending, under its own file name, with the media type of its extension.
    /// - Parameters:
    ///   - fileURL: The local file.
    ///   - key: The form field name.
    public init(withFilePath fileURL: URL, forKey key: String) {
        part = .file(name: key, url: fileURL)
    }

    /// Bytes in memory, typed by their first bytes (JPEG, PNG, GIF, TIFF, PDF, else `application/octet-stream`) and
    /// named after the field with that type's extension, e.g. `avatar.png`.
    /// - Parameters:
    ///   - data: The file's bytes.
    ///   - key: The form field name.
    public init(withData data: Data, forKey key: String) {
        let (mediaType, fileExtension) = Self.sniffedType(of: data)
        part = .data(name: key, data: data, filename: key + fileExtension, mediaType: mediaType)
    }

    /// The media type announced by the file's signature, and the extension that goes with it.
    private static func sniffedType(of data: Data) -> (mediaType: String, fileExtension: String) {
        let signatures: [(bytes: [UInt8], mediaType: String, fileExtension: String)] = [
            ([0xFF, 0xD8, 0xFF], "image/jpeg", ".jpg"),
            ([0x89, 0x50, 0x4E, 0x47], "image/png", ".png"),
            (Array("GIF8".utf8), "image/gif", ".gif"),
            ([0x49, 0x49, 0x2A, 0x00], "image/tiff", ".tiff"),
            ([0x4D, 0x4D, 0x00, 0x2A], "image/tiff", ".tiff"),
            (Array("%PDF".utf8), "application/pdf", ".pdf"),
        ]
        let match = signatures.first { data.starts(with: $0.bytes) }
        return match.map { ($0.mediaType, $0.fileExtension) } ?? ("application/octet-stream", "")
    }
}

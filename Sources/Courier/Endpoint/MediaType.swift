/// The media types Courier infers for files whose type the caller did not give.
public enum MediaType {
    /// The media type for a file name's extension (case-insensitive), or `application/octet-stream` when it is not
    /// one of the common ones listed here: the same answer on every platform, whatever the system knows.
    public static func forFileExtension(_ fileExtension: String) -> String {
        byExtension[fileExtension.lowercased()] ?? "application/octet-stream"
    }

    /// `type/subtype` of a `Content-Type` value without its parameters, lowercased: `application/json` for
    /// `Application/JSON; charset=utf-8`.
    package static func essence(of mediaType: String) -> String {
        // Cut at the byte: as Characters, a mark before ";" (U+0602) or after it would join with it and hide it.
        let bytes = mediaType.utf8
        let essence = bytes.firstIndex(of: UInt8(ascii: ";")).map { String(Substring(bytes[..<$0])) } ?? mediaType
        return essence.trimmingCharacters(in: .whitespaces).lowercased()
    }

    private static let byExtension: [String: String] = [
        "avif": "image/avif", "bmp": "image/bmp", "gif": "image/gif", "heic": "image/heic", "jpeg": "image/jpeg",
        "jpg": "image/jpeg", "png": "image/png", "svg": "image/svg+xml", "tif": "image/tiff", "tiff": "image/tiff",
        "webp": "image/webp", "ico": "image/vnd.microsoft.icon",
        "aac": "audio/aac", "m4a": "audio/mp4", "mp3": "audio/mpeg", "ogg": "audio/ogg", "wav": "audio/wav",
        "mov": "video/quicktime", "mp4": "video/mp4", "webm": "video/webm",
        "csv": "text/csv", "css": "text/css", "htm": "text/html", "html": "text/html", "md": "text/markdown",
        "txt": "text/plain",
        "gz": "application/gzip", "js": "text/javascript", "json": "application/json", "pdf": "application/pdf",
        "xml": "application/xml", "zip": "application/zip",
    ]
}

import Foundation

/// One part of a ``HttpBody/multipart(_:)`` body: a text field, or a file given as bytes or read from disk.
///
/// The name and the file name are sent as given, in UTF-8, inside double quotes; a `"`, CR or LF in them is
/// written `%22`, `%0D`, `%0A` (the HTML standard's escapes), so it cannot end the quoted string or the header line.
public struct MultipartPart: Sendable {
    enum Content: Sendable {
        case text(String)
        case data(Data)
        case file(URL)
    }

    /// The form field name.
    public let name: String
    /// The file name sent with a file part, or `nil` for a text field.
    public let filename: String?
    /// The `Content-Type` of a file part, or `nil` for a text field.
    public let mediaType: String?
    let content: Content

    /// A text field `name` with the UTF-8 text `value`.
    public static func text(name: String, value: String) -> MultipartPart {
        MultipartPart(name: name, filename: nil, mediaType: nil, content: .text(value))
    }

    /// A file part whose bytes are in memory.
    /// - Parameters:
    ///   - name: The form field name.
    ///   - data: The file's bytes.
    ///   - filename: The file name sent.
    ///   - mediaType: The part's `Content-Type`; `nil` infers it from the file name's extension.
    public static func data(name: String, data: Data, filename: String, mediaType: String? = nil) -> MultipartPart {
        MultipartPart(
            name: name,
            filename: filename,
            mediaType: mediaType ?? MediaType.forFileExtension(fileExtension(of: filename)),
            content: .data(data)
        )
    }

    /// A file part read from disk in chunks while the body is written, never whole into memory.
    /// - Parameters:
    ///   - name: The form field name.
    ///   - url: The file to read.
    ///   - filename: The file name sent; `nil` sends the file's own name.
    ///   - mediaType: The part's `Content-Type`; `nil` infers it from the extension of the file name sent, or of the
    ///     file when that name has none.
    public static func file(name: String, url: URL, filename: String? = nil, mediaType: String? = nil) -> MultipartPart
    {
        let filename = filename ?? url.lastPathComponent
        // The sent name's extension first; a name without one (`"upload"`) falls back to the file's own.
        let sentExtension = fileExtension(of: filename)
        return MultipartPart(
            name: name,
            filename: filename,
            mediaType: mediaType
                ?? MediaType.forFileExtension(sentExtension.isEmpty ? url.pathExtension : sentExtension),
            content: .file(url)
        )
    }

    /// The text after the last "." of the name's last path component, or "" when it has no "." or only a leading one:
    /// what `NSString.pathExtension` answers, without swift-corelibs-foundation's trap on a name
    /// with "//" before a non-ASCII character (`"a//é"`). Cut at bytes, so a combining mark cannot hide a "." or "/".
    static func fileExtension(of filename: String) -> String {
        var bytes = Substring(filename).utf8[...]
        while bytes.last == UInt8(ascii: "/") { bytes = bytes.dropLast() }
        let component = bytes.lastIndex(of: UInt8(ascii: "/")).map { bytes[bytes.index(after: $0)...] } ?? bytes
        guard let dot = component.lastIndex(of: UInt8(ascii: ".")), dot != component.startIndex else { return "" }
        return String(Substring(component[component.index(after: dot)...]))
    }
}

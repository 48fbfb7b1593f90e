import Foundation

extension RequestBuilder {
    /// A body ready for `URLRequest`: bytes in memory, a file to upload, or (for inspecting) a stream of the file.
    struct EncodedBody {
        var data: Data?
        var stream: InputStream?
        var file: BodyFile?
        var contentType: String
    }

    static func encode(
        _ body: HttpBody,
        encoder: JSONEncoder,
        purpose: Purpose
    ) throws(InvalidRequestError) -> EncodedBody {
        switch body {
        case .data(let data, let contentType):
            return EncodedBody(data: data, contentType: contentType ?? "application/json")
        case .json(let value):
            do {
                return EncodedBody(data: try encoder.encode(value), contentType: "application/json")
            } catch {
                throw InvalidRequestError(reason: "the JSON body \(type(of: value)) could not be encoded: \(error)")
            }
        case .form(let fields):
            return formBody(fields)
        case .formEncodable(let value):
            do {
                return formBody(try FormFieldEncoder.fields(of: value))
            } catch {
                throw InvalidRequestError(reason: "the form body \(type(of: value)) could not be encoded: \(error)")
            }
        case .multipart(let parts):
            return try multipartBody(MultipartWriter(parts: parts), purpose: purpose)
        case .file(let url, let contentType):
            var isDirectory: ObjCBool = false
            guard url.isFileURL, FileManager.default.fileExists(atPath: url.path, isDirectory: &isDirectory),
                !isDirectory.boolValue, FileManager.default.isReadableFile(atPath: url.path)
            else {
                throw InvalidRequestError(
                    reason: "the body file \(quoted(url.absoluteString)) is not a readable local file"
                )
            }
            let contentType = contentType ?? MediaType.forFileExtension(url.pathExtension)
            switch purpose {
            case .sending:
                return EncodedBody(file: BodyFile(url: url, isTemporary: false), contentType: contentType)
            case .inspecting:
                return EncodedBody(stream: InputStream(url: url), contentType: contentType)
            }
        }
    }

    private static func formBody(_ fields: [(name: String, value: String)]) -> EncodedBody {
        EncodedBody(data: Data(PercentEncoding.form(fields).utf8), contentType: "application/x-www-form-urlencoded")
    }

    /// In memory unless a part is a file and the body is for sending: then a temporary file, which the transport
    /// streams, so a large file is never read whole into memory.
    private static func multipartBody(
        _ writer: MultipartWriter,
        purpose: Purpose
    ) throws(InvalidRequestError) -> EncodedBody {
        let hasFileParts = writer.parts.contains {
            if case .file = $0.content { return true }
            return false
        }
        if hasFileParts && purpose == .sending {
            let (file, boundary) = try writer.temporaryFile()
            return EncodedBody(
                file: BodyFile(url: file, isTemporary: true),
                contentType: "multipart/form-data; boundary=\(boundary)"
            )
        }
        let (data, boundary) = try writer.data()
        return EncodedBody(data: data, contentType: "multipart/form-data; boundary=\(boundary)")
    }
}

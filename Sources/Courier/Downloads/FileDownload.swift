import Foundation

/// One download's file: written beside the destination under a hidden name, and renamed into place only when whole,
/// so that the destination is never a partial file. A resumable download keeps its partial file under a name of
/// its own, with a record of the URL and the validator (`ETag` or `Last-Modified`) that let the next download
/// continue it.
final class FileDownload: Sendable {
    let destination: URL
    let options: DownloadOptions
    /// Where the body is written until it is whole.
    let partialUrl: URL
    private let recordUrl: URL
    /// Whether the download's outcome is known: a sending whose head arrives after that opens no file.
    private let settled = Locked(false)

    /// What a resumable download keeps beside its partial file.
    private struct ResumeRecord: Codable {
        let url: String
        let validator: String
    }

    init(destination: URL, options: DownloadOptions) {
        self.destination = destination
        self.options = options
        let directory = destination.deletingLastPathComponent()
        let name = destination.lastPathComponent
        // A download that is not resumable has a name of its own: two at once to one destination never share one.
        let partialName =
            options.resumable ? ".\(name).courier-partial" : ".\(name).\(UUID().uuidString).courier-partial"
        partialUrl = directory.appendingPathComponent(partialName)
        recordUrl = directory.appendingPathComponent(partialName + ".json")
    }

    /// `Range` and `If-Range` for a sending to `url`, when a resumable download of it was interrupted.
    func resumeHeaders(for url: URL?) -> [String: String] {
        guard options.resumable, let url, let record = readRecord(), record.url == url.absoluteString,
            let size = fileSize(at: partialUrl), size > 0
        else { return [:] }
        return ["Range": "bytes=\(size)-", "If-Range": record.validator]
    }

    /// Opens the file for a 2xx answer: appending for a `206` that continues the partial file, from the start for
    /// anything else; `inline` writes on the calling thread (a mocked answer). Throws when the announced size is over the limit or the file cannot be written.
    func open(statusCode: Int, headerFields: [String: String], url: URL?, inline: Bool) throws -> FileWriter {
        // Under the lock, so that the download cannot be settled (and its files deleted) while a file is opened.
        try settled.withLock { settled in
            if settled { throw URLError(.cancelled) }
            return try openUnsettled(statusCode: statusCode, headerFields: headerFields, url: url, inline: inline)
        }
    }

    private func openUnsettled(
        statusCode: Int,
        headerFields: [String: String],
        url: URL?,
        inline: Bool
    ) throws -> FileWriter {
        let announced = HeaderFields.contentLength(in: headerFields)
        if statusCode == 206 {
            // A part that cannot be placed is refused: written as the whole file, it would corrupt it.
            let contentRange = HeaderFields.field("Content-Range", in: headerFields)
            guard let range = contentRange.flatMap(ContentRange.init) else {
                let text = contentRange.map { "Content-Range \"\($0)\"" } ?? "no Content-Range"
                throw URLError(
                    .badServerResponse,
                    userInfo: [
                        NSLocalizedDescriptionKey: "A 206 answer with \(text), so its place in the file is unknown"
                    ]
                )
            }
            let onDisk = fileSize(at: partialUrl) ?? 0
            guard range.start == 0 || (options.resumable && range.start <= onDisk) else {
                throw URLError(
                    .badServerResponse,
                    userInfo: [
                        NSLocalizedDescriptionKey: "A 206 answer from byte \(range.start), with \(onDisk) bytes on disk"
                    ]
                )
            }
            // Added with overflow checked: both numbers come from the server.
            let total =
                range.total
                ?? announced.map { range.start.addingReportingOverflow($0) }.map { sum in
                    sum.overflow ? Int64.max : sum.partialValue
                }
            if let total, total > options.maximumSize {
                throw ResponseBodyTooLargeError(limit: Int(clamping: options.maximumSize))
            }
            if range.start == 0 { removeRecord() }
            let handle = try fileError(partialUrl) {
                if range.start == 0 { try Self.create(partialUrl) }
                let handle = try FileHandle(forWritingTo: partialUrl)
                try handle.truncate(atOffset: UInt64(range.start))
                try handle.seekToEnd()
                return handle
            }
            return FileWriter(
                url: partialUrl,
                handle: handle,
                offset: range.start,
                expectedSize: total.map { $0 - range.start },
                limit: options.maximumSize,
                inline: inline
            )
        }
        if let announced, announced > options.maximumSize {
            throw ResponseBodyTooLargeError(limit: Int(clamping: options.maximumSize))
        }
        // The whole body from its start: whatever was kept before is not part of it.
        removeRecord()
        let handle = try fileError(partialUrl) {
            try Self.create(partialUrl)
            return try FileHandle(forWritingTo: partialUrl)
        }
        if options.resumable, let url, let validator = Self.validator(in: headerFields) {
            writeRecord(ResumeRecord(url: url.absoluteString, validator: validator))
        }
        return FileWriter(
            url: partialUrl,
            handle: handle,
            offset: 0,
            expectedSize: announced,
            limit: options.maximumSize,
            inline: inline
        )
    }

    /// Moves the whole file into place, replacing the destination in one step.
    func complete() throws {
        settled.withLock { $0 = true }
        try fileError(destination) {
            if rename(partialUrl.path, destination.path) != 0 {
                throw POSIXError(POSIXErrorCode(rawValue: errno) ?? .EIO)
            }
        }
        removeRecord()
    }

    /// The download did not complete: a resumable one with a record keeps its partial file; anything else is
    /// deleted.
    func abandon() {
        settled.withLock { $0 = true }
        if options.resumable, readRecord() != nil, FileManager.default.fileExists(atPath: partialUrl.path) { return }
        try? FileManager.default.removeItem(at: partialUrl)
        removeRecord()
    }

    /// Forgets a kept partial file, e.g. after the server refused its range.
    func forget() {
        settled.withLock { $0 = true }
        try? FileManager.default.removeItem(at: partialUrl)
        removeRecord()
    }

    // MARK: Helpers

    private func readRecord() -> ResumeRecord? {
        guard let data = FileManager.default.contents(atPath: recordUrl.path) else { return nil }
        return try? JSONDecoder().decode(ResumeRecord.self, from: data)
    }

    private func writeRecord(_ record: ResumeRecord) {
        guard let data = try? JSONEncoder().encode(record) else { return }
        _ = FileManager.default.createFile(atPath: recordUrl.path, contents: data)
    }

    private func removeRecord() {
        try? FileManager.default.removeItem(at: recordUrl)
    }

    /// A strong `ETag`, else `Last-Modified`: what `If-Range` accepts.
    private static func validator(in fields: [String: String]) -> String? {
        if let etag = HeaderFields.field("ETag", in: fields), !etag.hasPrefix("W/"), !etag.isEmpty { return etag }
        return HeaderFields.field("Last-Modified", in: fields)
    }

    private static func create(_ url: URL) throws {
        guard FileManager.default.createFile(atPath: url.path, contents: nil) else {
            throw POSIXError(POSIXErrorCode(rawValue: errno) ?? .EIO)
        }
    }

    private func fileError<Value>(_ url: URL, _ body: () throws -> Value) throws -> Value {
        do {
            return try body()
        } catch {
            throw FileError(url: url, error: error)
        }
    }
}

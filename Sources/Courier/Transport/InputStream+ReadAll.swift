import Foundation

extension InputStream {
    /// The stream's bytes to its end, read once: a plugin's body stream, for a transport that must know the body's
    /// length or send it again after a redirect.
    /// - Throws: The stream's own error, or `URLError(.cannotOpenFile)` when it gives none.
    package func readAll() throws -> Data {
        var data = Data()
        var buffer = [UInt8](repeating: 0, count: 64 * 1024)
        open()
        defer { close() }
        while true {
            let count = read(&buffer, maxLength: buffer.count)
            if count < 0 { throw streamError ?? URLError(.cannotOpenFile) }
            if count == 0 { return data }
            data.append(buffer, count: count)
        }
    }
}

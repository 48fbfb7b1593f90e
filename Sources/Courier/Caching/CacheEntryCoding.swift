import Foundation

/// The bytes of a directory store's entry file: a version line, the key, then each variant; every length is checked
/// on reading, so a truncated or foreign file reads as `nil`, never as a wrong response.
enum CacheEntryCoding {
    private static let magic = Data("courier-cache 1\n".utf8)

    static func encode(_ variants: [StoredResponse], for key: CacheKey) -> Data {
        var writer = Writer(data: magic)
        writer.string(key.partition)
        writer.string(key.url)
        writer.integer(variants.count)
        for variant in variants {
            writer.integer(variant.statusCode)
            writer.string(variant.httpVersion)
            writer.fields(variant.headerFields)
            writer.bytes(variant.body)
            writer.integer(variant.varyNames.count)
            for name in variant.varyNames { writer.string(name) }
            writer.fields(variant.varyValues)
            writer.double(variant.requestTime.timeIntervalSinceReferenceDate)
            writer.double(variant.responseTime.timeIntervalSinceReferenceDate)
            writer.double(variant.freshnessLifetime)
        }
        return writer.data
    }

    /// The variants in `data` if it is an entry for `key`; `nil` if it is not, or cannot be read.
    static func decode(_ data: Data, for key: CacheKey) -> [StoredResponse]? {
        guard data.starts(with: magic) else { return nil }
        var reader = Reader(data: data, offset: data.startIndex + magic.count)
        guard reader.string() == key.partition, reader.string() == key.url, let count = reader.integer() else {
            return nil
        }
        var variants: [StoredResponse] = []
        for _ in 0..<count {
            guard let statusCode = reader.integer(), let httpVersion = reader.string(),
                let headerFields = reader.fields(), let body = reader.bytes(), let nameCount = reader.integer()
            else { return nil }
            var varyNames: [String] = []
            for _ in 0..<nameCount {
                guard let name = reader.string() else { return nil }
                varyNames.append(name)
            }
            guard let varyValues = reader.fields(), let requestTime = reader.double(),
                let responseTime = reader.double(), let freshnessLifetime = reader.double()
            else { return nil }
            variants.append(
                StoredResponse(
                    statusCode: statusCode,
                    httpVersion: httpVersion,
                    headerFields: headerFields,
                    body: body,
                    varyNames: varyNames,
                    varyValues: varyValues,
                    requestTime: Date(timeIntervalSinceReferenceDate: requestTime),
                    responseTime: Date(timeIntervalSinceReferenceDate: responseTime),
                    freshnessLifetime: freshnessLifetime
                )
            )
        }
        return reader.offset == data.endIndex ? variants : nil
    }

    private struct Writer {
        var data: Data

        mutating func integer(_ value: Int) {
            withUnsafeBytes(of: Int64(value).littleEndian) { data.append(contentsOf: $0) }
        }

        mutating func double(_ value: Double) {
            withUnsafeBytes(of: value.bitPattern.littleEndian) { data.append(contentsOf: $0) }
        }

        mutating func bytes(_ bytes: Data) {
            integer(bytes.count)
            data.append(bytes)
        }

        mutating func string(_ text: String) { bytes(Data(text.utf8)) }

        mutating func fields(_ fields: [String: String]) {
            integer(fields.count)
            for (name, value) in fields.sorted(by: { $0.key < $1.key }) {
                string(name)
                string(value)
            }
        }
    }

    private struct Reader {
        let data: Data
        var offset: Data.Index

        /// Eight bytes, little-endian.
        mutating func word() -> UInt64? {
            guard data.endIndex - offset >= 8 else { return nil }
            var value: UInt64 = 0
            for (shift, byte) in data[offset..<offset + 8].enumerated() { value |= UInt64(byte) << (8 * shift) }
            offset += 8
            return value
        }

        mutating func integer() -> Int? {
            guard let word = word() else { return nil }
            let integer = Int64(bitPattern: word)
            return integer >= 0 && integer <= Int64(Int32.max) ? Int(integer) : nil
        }

        mutating func double() -> Double? {
            guard let word = word() else { return nil }
            let double = Double(bitPattern: word)
            return double.isFinite ? double : nil
        }

        mutating func bytes() -> Data? {
            guard let count = integer(), data.endIndex - offset >= count else { return nil }
            defer { offset += count }
            return data.subdata(in: offset..<offset + count)
        }

        mutating func string() -> String? { bytes().flatMap { String(data: $0, encoding: .utf8) } }

        mutating func fields() -> [String: String]? {
            guard let count = integer() else { return nil }
            var fields: [String: String] = [:]
            for _ in 0..<count {
                guard let name = string(), let value = string() else { return nil }
                fields[name] = value
            }
            return fields
        }
    }
}

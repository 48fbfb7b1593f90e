#if canImport(CCourierCurl)

/// A head's fields as libcurl hands them over, kept as bytes (`name:value\n` each, the value trimmed) and made into a
/// dictionary only when something asks for them: a name and a value made into strings for each line, and the
/// dictionary they went into, cost more allocations per request than the rest of the transport, while decoding a body
/// needs none of it.
struct CurlHeadFields: HeaderFieldSource {
    private var bytes: [UInt8] = []

    /// Forgets the fields of a head passed over (an informational one, a redirect's).
    mutating func removeAll() {
        bytes.removeAll(keepingCapacity: true)
    }

    /// Adds one field; `name` is a token and `value` holds no line break (the caller checked both).
    mutating func append(name: UnsafeRawBufferPointer, value: UnsafeRawBufferPointer) {
        // Room for a usual answer's fields at once, rather than growing on the way.
        if bytes.capacity == 0 { bytes.reserveCapacity(512) }
        bytes.append(contentsOf: name)
        bytes.append(UInt8(ascii: ":"))
        bytes.append(contentsOf: value)
        bytes.append(UInt8(ascii: "\n"))
    }

    /// The value of the field `name`, whatever the case of its name; the values of a repeated one joined with commas,
    /// whatever their spellings, so that the framing checks see a `Content-Length` given twice as given twice (NIO
    /// refuses it too). ``headerFields`` keeps spellings apart, as URLSession does.
    func value(of name: String) -> String? {
        var found: String?
        forEachField { fieldName, value in
            guard HeaderFields.sameName(fieldName, name.utf8) else { return }
            let text = String(decoding: value, as: UTF8.self)
            found = found.map { "\($0), \(text)" } ?? text
        }
        return found
    }

    var headerFields: [String: String] {
        var fields: [String: String] = [:]
        forEachField { name, value in
            // As URLSession does: repeated fields joined with commas.
            HeaderFields.add(
                String(decoding: value, as: UTF8.self),
                named: String(decoding: name, as: UTF8.self),
                to: &fields
            )
        }
        return fields
    }

    private func forEachField(_ body: (ArraySlice<UInt8>, ArraySlice<UInt8>) -> Void) {
        var start = bytes.startIndex
        while let end = bytes[start...].firstIndex(of: UInt8(ascii: "\n")) {
            let line = bytes[start..<end]
            if let colon = line.firstIndex(of: UInt8(ascii: ":")) {
                body(line[..<colon], line[(colon + 1)...])
            }
            start = end + 1
        }
    }
}
#endif

#if AsyncHTTPClient
import Courier
import NIOHTTP1

/// The fields of an AsyncHTTPClient answer, kept as the client received them until a plugin or the caller asks for
/// the response.
extension HTTPHeaders: HeaderFieldSource {
    /// As URLSession does: a repeated field's values joined with commas.
    package var headerFields: [String: String] {
        var fields: [String: String] = Dictionary(minimumCapacity: count)
        for (name, value) in self {
            HeaderFields.add(value, named: name, to: &fields)
        }
        return fields
    }
}
#endif

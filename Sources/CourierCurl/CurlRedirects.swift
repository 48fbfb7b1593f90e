import Courier

/// Which answers libcurl follows by itself (`CURLOPT_FOLLOWLOCATION`): their heads are not the request's answer.
enum CurlRedirects {
    /// The most redirects followed, as URLSession allows.
    static let limit = 16

    static func follows(statusCode: Int, fields: [String: String]) -> Bool {
        guard (300..<400).contains(statusCode), statusCode != 304 else { return false }
        // libcurl passes over an empty `Location`: the 3xx is then the answer.
        guard let location = HeaderFields.field("Location", in: fields) else { return false }
        return !location.allSatisfy { $0 == " " || $0 == "\t" }
    }
}

import Courier

/// Which answers libcurl follows by itself (`CURLOPT_FOLLOWLOCATION`): their heads are not the request's answer.
enum CurlRedirects {
    /// The most redirects followed, as URLSession allows.
    static let limit = 16

    static func follows(statusCode: Int, fields: [String: String]) -> Bool {
        guard (300..<400).contains(statusCode), statusCode != 304 else { return false }
        return HeaderFields.field("Location", in: fields) != nil
    }
}

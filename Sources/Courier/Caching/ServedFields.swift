/// A stored answer's fields as served: its current `Age` and the cache's `Cache-Status` member, put together only
/// when a plugin or the caller reads them. A hit that only decodes its body never builds them.
struct ServedFields: HeaderFieldSource {
    let stored: [String: String]
    let age: Int
    let status: CacheStatus

    var headerFields: [String: String] {
        var fields = stored.filter { !HeaderFields.sameName($0.key, "Age") }
        fields["Age"] = String(age)
        CacheStatus.append(status.member(), to: &fields)
        return fields
    }
}

/// The metric objects of one kind, made once per label and dimensions: making one asks the factory, which a
/// request would otherwise do several times over.
final class MetricHandles<Handle: Sendable>: Sendable {
    private let handles = Locked<[[String]: Handle]>([:])
    private let make: @Sendable (String, [(String, String)]) -> Handle

    init(make: @escaping @Sendable (String, [(String, String)]) -> Handle) {
        self.make = make
    }

    func handle(_ label: String, _ dimensions: [(String, String)]) -> Handle {
        var key = [label]
        for (name, value) in dimensions { key += [name, value] }
        if let known = handles.withLock({ $0[key] }) { return known }
        // Made outside the lock: a factory may take locks of its own.
        let made = make(label, dimensions)
        return handles.withLock { handles in
            if let known = handles[key] { return known }
            handles[key] = made
            return made
        }
    }
}

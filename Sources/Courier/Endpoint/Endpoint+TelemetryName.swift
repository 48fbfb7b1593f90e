extension Endpoint {
    /// The type's name and the case's, e.g. `TodoApi.list`; see ``Endpoint/telemetryName``.
    public var telemetryName: String {
        let typeName = String(describing: Self.self)
        let mirror = Mirror(reflecting: self)
        guard mirror.displayStyle == .enum else { return typeName }
        // A case with associated values shows its name as the label of its one child.
        if let caseName = mirror.children.first?.label { return typeName + "." + caseName }
        // A case without them describes itself by its name, unless the type describes itself otherwise.
        guard !(self is any CustomStringConvertible), !(self is any CustomDebugStringConvertible) else {
            return typeName
        }
        return typeName + "." + String(describing: self)
    }
}

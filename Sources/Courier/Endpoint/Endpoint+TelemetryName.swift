extension Endpoint {
    /// The type's name and the case's, e.g. `TodoApi.list`; see ``Endpoint/telemetryName``.
    public var telemetryName: String {
        TelemetryNames.name(of: self)
    }
}

/// The default names of endpoints, made once per case: reflecting on a value with `Mirror` costs about 17 heap
/// allocations, more than an observed request's whole pipeline, so the case is found by its name in the type's
/// metadata instead, the way `print` finds it, and the name is kept.
enum TelemetryNames {
    private static let known = Locked<[CaseKey: String]>([:])

    private struct CaseKey: Hashable {
        let type: ObjectIdentifier
        /// Where the runtime keeps the case's name: one address per case of a type.
        let caseName: UInt
    }

    static func name<Value>(of value: Value) -> String {
        // An enum's case name; `nil` for other types, and for an enum compiled without reflection metadata.
        guard let caseName = enumCaseName(value) else { return String(describing: Value.self) }
        let key = CaseKey(type: ObjectIdentifier(Value.self), caseName: UInt(bitPattern: caseName))
        return known.value(for: key) { String(describing: Value.self) + "." + String(cString: caseName) }
    }
}

/// The Swift runtime's name of the case `value` holds, as `print` shows it; the stable entry point behind the
/// standard library's own `_getEnumCaseName`.
@_silgen_name("swift_EnumCaseName")
private func enumCaseName<Value>(_ value: Value) -> UnsafePointer<CChar>?

#if Combine
// `import CourierCombine` is the one import a Microya file needs: Courier's names, and Combine's where Combine
// exists (Apple platforms) or OpenCombine's with its DispatchQueue scheduler and JSON coders where it does not.
@_exported import Courier

#if canImport(Combine)
@_exported import Combine
#else
@_exported import OpenCombine
@_exported import OpenCombineDispatch
@_exported import OpenCombineFoundation
#endif
#endif

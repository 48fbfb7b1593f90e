// `CurlTransport` is part of `Courier` on Linux, where it is the default transport. This product stays so that a
// package that names it, and code that imports it, keep building.
@_exported import Courier

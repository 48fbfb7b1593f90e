import NIOConcurrencyHelpers
import NIOCore

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// A port on `127.0.0.1` that a socket holds bound and never listens on, until ``close()``: a connection to it is
/// refused, and nothing else can take the port meanwhile.
///
/// A port that was free when probed and then let go is not enough: another server of the same test run, asking the
/// system for a free port, could be given it, and a request meant to be refused reached that server instead (its
/// `404`, once in a few runs of the release-built suite under load).
final class RefusingPort: Sendable {
    let port: Int
    private let descriptor: NIOLockedValueBox<Int32?>

    init() throws {
        #if canImport(Glibc)
        let descriptor = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        #else
        let descriptor = socket(AF_INET, SOCK_STREAM, 0)
        #endif
        guard descriptor >= 0 else { throw IOError(errnoCode: errno, reason: "socket") }
        var address = sockaddr_in()
        #if canImport(Darwin)
        address.sin_len = UInt8(MemoryLayout<sockaddr_in>.size)
        #endif
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = 0
        address.sin_addr.s_addr = in_addr_t(0x7F00_0001).bigEndian
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        let bound = withUnsafeMutablePointer(to: &address) { pointer in
            pointer.withMemoryRebound(to: sockaddr.self, capacity: 1) { address in
                bind(descriptor, address, length) == 0 && getsockname(descriptor, address, &length) == 0
            }
        }
        guard bound else {
            let code = errno
            _ = closeDescriptor(descriptor)
            throw IOError(errnoCode: code, reason: "bind")
        }
        self.port = Int(UInt16(bigEndian: address.sin_port))
        self.descriptor = NIOLockedValueBox(descriptor)
    }

    /// Lets the port go; later calls do nothing.
    func close() {
        guard let descriptor = descriptor.withLockedValue({ $0.take() }) else { return }
        _ = closeDescriptor(descriptor)
    }

    deinit { close() }
}

/// The C library's `close`, which ``RefusingPort/close()`` hides within the type.
private func closeDescriptor(_ descriptor: Int32) -> Int32 {
    #if canImport(Glibc)
    Glibc.close(descriptor)
    #else
    Darwin.close(descriptor)
    #endif
}

import Foundation

/// Whether this test process runs under ThreadSanitizer, which slows every instruction several times.
enum ThreadSanitizer {
    static let isOn: Bool = {
        guard let process = dlopen(nil, RTLD_NOW) else { return false }
        return dlsym(process, "__tsan_init") != nil
    }()
}

#if Combine
import Foundation

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// An answer of any status: its body and its response, as CombineRequest's `sendRequest()` publishes them.
public typealias DataResponseTuple = (data: Data, response: HTTPURLResponse)
#endif

import Foundation
import Testing

@testable import Courier

/// Query order, array styles and scalar values, without the network.
@Suite struct QueryEncodingTests {
    func query(_ parameters: [String: QueryParameterValue]) throws -> String? {
        try FreeEndpoint(queryParameters: parameters).built().get().url?.query
    }

    func query(ordered: [(key: String, value: QueryParameterValue)]) throws -> String? {
        try FreeEndpoint(ordered: ordered).built().get().url?.query
    }

    @Test func orderedParametersKeepTheirOrderAndKeysMayRepeat() throws {
        #expect(try query(ordered: [("z", "1"), ("a", "2"), ("m", "3"), ("a", "4")]) == "z=1&a=2&m=3&a=4")
    }

    @Test func aDictionaryIsSentSortedByKeyWhateverItsOrder() throws {
        #expect(try query(["b": "2", "c": "3", "a": "1"]) == "a=1&b=2&c=3")
    }

    @Test(arguments: [
        (QueryParameterValue.array(["a", "b,c"]), Optional("tag=a&tag=b%2Cc")),
        (.array(["a", "b,c"], style: .repeatedKey), "tag=a&tag=b%2Cc"),
        (.array(["a", "b"], style: .bracketedKey), "tag%5B%5D=a&tag%5B%5D=b"),
        (.array(["a", "b,c"], style: .commaSeparated), "tag=a,b%2Cc"),
        (.array([], style: .commaSeparated), nil),
        (.array([]), nil),
    ])
    func arrayStyles(value: QueryParameterValue, expected: String?) throws {
        #expect(try query(["tag": value]) == expected)
    }

    @Test func numbersAndBooleansReadPlainly() throws {
        let parameters: [(key: String, value: QueryParameterValue)] = [
            ("page", 2), ("negative", -40), ("draft", false), ("small", 0.0000001), ("ratio", 1.5),
            ("big", .double(1.5e15)), ("count", .int(7)), ("on", .bool(true)),
        ]
        #expect(
            try query(ordered: parameters)
                == "page=2&negative=-40&draft=false&small=0.0000001&ratio=1.5&big=1500000000000000&count=7&on=true"
        )
    }

    @Test func everythingOutsideTheUnreservedSetIsPercentEncoded() throws {
        #expect(
            try query(ordered: [("a+b c&d=e", "a+b c&d=e#/?%é~-._"), ("", "")])
                == "a%2Bb%20c%26d%3De=a%2Bb%20c%26d%3De%23%2F%3F%25%C3%A9~-._&="
        )
    }
}

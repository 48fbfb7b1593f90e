import Foundation
import Testing

/// The snippets in the README and the DocC articles are code that runs in this target, word for word.
@Suite struct DocSnippetTests {
    static let root = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()

    static let readme = "README.md"
    static let article = "Sources/Courier/Courier.docc/TestingWithMocks.md"

    /// The code between a file's `<marker>: start` and `<marker>: end` comments, without its common indentation.
    static func snippet(_ marker: String, in testFile: String) throws -> String {
        let text = try String(contentsOf: root.appendingPathComponent(testFile), encoding: .utf8)
        let lines = text.components(separatedBy: "\n")
        let trimmed = lines.map { $0.trimmingCharacters(in: .whitespaces) }
        guard
            let start = trimmed.firstIndex(of: "// \(marker): start"),
            let end = trimmed.firstIndex(of: "// \(marker): end"),
            start < end
        else {
            Issue.record("\(testFile) has no \(marker) markers")
            return ""
        }
        let body = lines[(start + 1)..<end]
        let indentation = body.filter { !$0.isEmpty }.map { $0.prefix { $0 == " " }.count }.min() ?? 0
        return body.map { String($0.dropFirst(indentation)) }.joined(separator: "\n")
    }

    @Test(arguments: [
        ("README snippet", "Tests/CourierTests/Support/TodoApi.swift", [readme, article]),
        ("README snippet", "Tests/CourierTests/TodoServiceXCTests.swift", [readme, article]),
        ("DocC snippet", "Tests/CourierTests/TodoServiceMockingTests.swift", [article]),
        ("Scripting snippet", "Tests/CourierTests/TodoServiceMockingTests.swift", [readme, article]),
        ("Body kinds snippet", "Tests/CourierTests/RequestBodyTests.swift", [readme]),
        ("Wait door snippet", "Tests/CourierTests/TodoServiceMockingTests.swift", [readme, article]),
        (
            "Plugins snippet", "Tests/CourierTests/PluginsSnippetTests.swift",
            [readme, "Sources/Courier/Courier.docc/UsingPlugins.md"]
        ),
    ])
    func theDocumentsShowTheCodeThatRuns(marker: String, testFile: String, documents: [String]) throws {
        let snippet = try Self.snippet(marker, in: testFile)
        #expect(!snippet.isEmpty)
        for document in documents {
            let text = try String(contentsOf: Self.root.appendingPathComponent(document), encoding: .utf8)
            let showsTheCode = text.contains(snippet)
            #expect(showsTheCode, "\(document) does not show the code of \(testFile) as it runs")
        }
    }

    /// The bullet list under `heading` in the README, or after `## Rules` in the article.
    static func rules(in document: String, after heading: String) throws -> String {
        let text = try String(contentsOf: root.appendingPathComponent(document), encoding: .utf8)
        guard let section = text.components(separatedBy: heading + "\n").dropFirst().first else { return "" }
        let lines = section.components(separatedBy: "\n")
        guard let first = lines.firstIndex(where: { $0.hasPrefix("- **") }) else { return "" }
        let end = lines[first...].firstIndex(where: { $0.hasPrefix("#") }) ?? lines.endIndex
        return lines[first..<end].joined(separator: "\n").trimmingCharacters(in: .whitespacesAndNewlines)
    }

    @Test func theArticleStatesTheSameRulesAsTheReadme() throws {
        let readme = try Self.rules(in: Self.readme, after: "## What the server receives")
        let article = try Self.rules(in: "Sources/Courier/Courier.docc/WhatTheServerReceives.md", after: "## Rules")
        #expect(!readme.isEmpty)
        let same = readme == article
        #expect(same, "README.md and WhatTheServerReceives.md state different rules")
    }
}

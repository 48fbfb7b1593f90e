import CourierTestServer
import Foundation
import Testing

/// Every Swift snippet a reader can copy (in the README, the DocC articles and the doc comments) is code that this
/// package compiles, word for word, and every region marked for the docs is shown in them.
///
/// A region is the code between a `// snippet: <name>` line and its `// end snippet` line in a Swift file under
/// `Tests/` or `Examples/`; regions may nest, and marker lines are not part of the code. Those in this target are
/// compiled with warnings as errors. A snippet that is a package manifest is checked by the package manager instead.
@Suite struct SnippetTests {
    static let root = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()

    /// A fenced Swift block in a document, or in a doc comment of the sources.
    struct Snippet: CustomTestStringConvertible {
        let file: String
        let line: Int
        let code: String

        var testDescription: String { "\(file):\(line)" }
        var isManifest: Bool { code.hasPrefix("// swift-tools-version") }
    }

    /// The code of a marked region.
    struct Region {
        let file: String
        let name: String
        let code: String
    }

    @Test(arguments: try documentSnippets().filter { !$0.isManifest })
    func theSnippetIsCompiledCode(_ snippet: Snippet) throws {
        #expect(
            Self.allRegions.contains { $0.code == snippet.code },
            "\(snippet.file):\(snippet.line) shows code that no marked region holds:\n\(snippet.code)"
        )
    }

    @Test func everyMarkedRegionIsShownInTheDocs() throws {
        let shown = Set(try Self.documentSnippets().map(\.code))
        for region in try Self.regions() where !shown.contains(region.code) {
            Issue.record("the region \"\(region.name)\" in \(region.file) is not shown in any document as it is")
        }
    }

    @Test func thereAreSnippetsToCheck() throws {
        let snippets = try Self.documentSnippets()
        #expect(snippets.count > 40)
        #expect(Set(snippets.map(\.file)).contains("README.md"))
    }

    /// The manifest shown for installing evaluates as a package manifest.
    @Test(.timeLimit(.minutes(HangGuard.minutes)), arguments: try documentSnippets().filter(\.isManifest))
    func theManifestIsValid(_ snippet: Snippet) throws {
        let directory = FileManager.default.temporaryDirectory
            .appendingPathComponent("courier-manifest-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        try Data(snippet.code.utf8).write(to: directory.appendingPathComponent("Package.swift"))

        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = ["swift", "package", "--package-path", directory.path, "dump-package"]
        let output = Pipe()
        process.standardOutput = output
        process.standardError = output
        try process.run()
        let printed = String(decoding: output.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        process.waitUntilExit()
        #expect(process.terminationStatus == 0, "\(snippet.file):\(snippet.line): \(printed)")
        #expect(printed.contains(#""identity" : "courier""#), "the manifest does not depend on Courier: \(printed)")
    }

    /// Each optional product's line, its trait on Courier's package line, reads the same in README.md and in the article
    /// of the product. (`.ci/consumer-check` resolves README's lines in a package of its own, as a user's.)
    @Test(arguments: [
        ("AsyncHTTPClient", "Transports.md"), ("Combine", "UsingCombine.md"), ("OpenAPI", "GeneratedOpenAPIClients.md"),
    ])
    func anOptionalProductsLineIsTheSameInTheReadmeAndItsArticle(trait: String, article: String) throws {
        let line = #"`.package(path: "../Courier", traits: [""# + trait + #""])`"#
        let readme = try String(contentsOf: Self.root.appendingPathComponent("README.md"), encoding: .utf8)
        #expect(readme.contains(line), "README.md does not give \(line)")
        let path = "Sources/Courier/Courier.docc/" + article
        let text = try String(contentsOf: Self.root.appendingPathComponent(path), encoding: .utf8)
        #expect(text.contains(line), "\(path) does not give \(line)")
    }

    // MARK: - Reading the documents and the regions

    static func documentSnippets() throws -> [Snippet] {
        var snippets: [Snippet] = []
        let paths = ["README.md", "Benchmarks/README.md", "Sources", "Examples"]
        for file in try files(under: paths) where file.hasSuffix(".md") || file.hasSuffix(".swift") {
            let text = try String(contentsOf: root.appendingPathComponent(file), encoding: .utf8)
            if file.hasSuffix(".md") {
                snippets += fencedBlocks(in: text.components(separatedBy: "\n"), file: file)
            } else if file.hasSuffix(".swift") {
                snippets += fencedBlocks(in: docCommentLines(of: text), file: file)
            }
        }
        return snippets
    }

    /// Read once for all snippets; ``everyMarkedRegionIsShownInTheDocs()`` reports a failure to read them.
    static let allRegions = (try? regions()) ?? []

    static func regions() throws -> [Region] {
        var regions: [Region] = []
        for file in try files(under: ["Tests", "Examples"]) where file.hasSuffix(".swift") {
            let text = try String(contentsOf: root.appendingPathComponent(file), encoding: .utf8)
            var open: [(name: String, lines: [String])] = []
            for line in text.components(separatedBy: "\n") {
                let trimmed = line.trimmingCharacters(in: .whitespaces)
                if trimmed.hasPrefix("// snippet: ") {
                    open.append((String(trimmed.dropFirst("// snippet: ".count)), []))
                } else if trimmed == "// end snippet" {
                    guard let region = open.popLast() else {
                        Issue.record("\(file): an end of snippet without a start")
                        continue
                    }
                    regions.append(Region(file: file, name: region.name, code: normalized(region.lines)))
                } else {
                    for index in open.indices { open[index].lines.append(line) }
                }
            }
            for region in open { Issue.record("\(file): the region \"\(region.name)\" has no end") }
        }
        return regions
    }

    /// The ```` ```swift ```` blocks among `lines`, each without its common indentation.
    static func fencedBlocks(in lines: [String], file: String) -> [Snippet] {
        var snippets: [Snippet] = []
        var current: (start: Int, lines: [String])?
        for (index, line) in lines.enumerated() {
            let trimmed = line.trimmingCharacters(in: .whitespaces)
            if var block = current {
                if trimmed == "```" {
                    snippets.append(Snippet(file: file, line: block.start, code: normalized(block.lines)))
                    current = nil
                } else {
                    block.lines.append(line)
                    current = block
                }
            } else if trimmed == "```swift" {
                current = (index + 1, [])
            }
        }
        return snippets
    }

    /// A Swift file's lines with the `///` of its doc comments removed, and blank lines for everything else, so
    /// that line numbers stay those of the file.
    static func docCommentLines(of text: String) -> [String] {
        text.components(separatedBy: "\n").map { line in
            let trimmed = line.trimmingCharacters(in: .whitespaces)
            guard trimmed.hasPrefix("///") else { return "" }
            let comment = trimmed.dropFirst(3)
            return String(comment.hasPrefix(" ") ? comment.dropFirst() : comment)
        }
    }

    /// The lines without their common indentation and trailing spaces, and without blank lines at either end.
    static func normalized(_ lines: [String]) -> String {
        let trimmed = lines.map { String($0.reversed().drop { $0 == " " }.reversed()) }
        let indentation = trimmed.filter { !$0.isEmpty }.map { $0.prefix { $0 == " " }.count }.min() ?? 0
        return trimmed.map { String($0.dropFirst(indentation)) }
            .joined(separator: "\n")
            .trimmingCharacters(in: .newlines)
    }

    /// The files at or under `paths`, relative to the package root, in a stable order.
    static func files(under paths: [String]) throws -> [String] {
        var found: [String] = []
        for path in paths {
            let url = root.appendingPathComponent(path)
            var isDirectory: ObjCBool = false
            guard FileManager.default.fileExists(atPath: url.path, isDirectory: &isDirectory) else { continue }
            guard isDirectory.boolValue else {
                found.append(path)
                continue
            }
            let enumerator = FileManager.default.enumerator(atPath: url.path)
            while let relative = enumerator?.nextObject() as? String {
                // A nested package's build folder (`.build`) holds its dependencies' sources, not this repository's.
                if relative.split(separator: "/").last?.hasPrefix(".") == true {
                    enumerator?.skipDescendants()
                    continue
                }
                found.append(path + "/" + relative)
            }
        }
        return found.sorted()
    }
}

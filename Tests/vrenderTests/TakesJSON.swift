import Foundation
import Testing

/// The entries of `FOLDER/takes.json` as plain JSON objects: what the command tests read a
/// capture's or a recovery's result from, independently of vrender's own decoder.
func manifest(_ folder: String) throws -> [[String: Any]] {
    let data = try #require(FileManager.default.contents(atPath: folder + "/takes.json"))
    let object = try #require(try JSONSerialization.jsonObject(with: data) as? [String: Any])
    return try #require(object["takes"] as? [[String: Any]])
}

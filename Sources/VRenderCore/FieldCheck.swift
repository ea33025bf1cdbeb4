import Foundation

/// The one home for checking fields of JSON that vrender wrote and reads back from a folder
/// anyone may have written (a chunk's record, an export plan, takes.json): whatever a value would
/// break further on, the error names the file and the field, and is an input error (exit 1).
package struct FieldCheck: Sendable {
    package let file: String

    package init(file: String) {
        self.file = file
    }

    package func require(_ condition: Bool, _ field: String, _ why: @autoclosure () -> String) throws {
        guard condition else {
            throw VRenderError.input(file, "field '\(field)' \(why()): not what vrender writes there (damaged or edited?)")
        }
    }

    /// `data` decoded as `type`, or an error naming the file and the field that did not decode.
    package func decode<T: Decodable>(_ type: T.Type, from data: Data, what: String) throws -> T {
        do { return try JSONDecoder().decode(type, from: data) } catch {
            throw VRenderError.input(file, "is not \(what) vrender can read (\(Self.reason(error)))")
        }
    }

    /// Why decoding refused the bytes, as one line naming the field ("field 'chunks[2].frameCount':
    /// expected Int"); any other error as it describes itself.
    package static func reason(_ error: any Error) -> String {
        guard let error = error as? DecodingError else { return "\(error)" }
        func field(_ path: [any CodingKey]) -> String {
            path.map { $0.intValue.map { "[\($0)]" } ?? ".\($0.stringValue)" }.joined().trimmingCharacters(in: ["."])
        }
        switch error {
        case .typeMismatch(_, let context), .valueNotFound(_, let context), .dataCorrupted(let context):
            return "field '\(field(context.codingPath))': \(context.debugDescription)"
        case .keyNotFound(let key, let context):
            return "field '\(field(context.codingPath + [key]))' is missing"
        @unknown default:
            return "\(error)"
        }
    }

    /// C0 and C1 controls and DEL: a name or a text read back holding one could rewrite the
    /// terminal a listing prints to.
    package static func isControl(_ scalar: Unicode.Scalar) -> Bool {
        scalar.value < 0x20 || (0x7F...0x9F).contains(scalar.value)
    }
}

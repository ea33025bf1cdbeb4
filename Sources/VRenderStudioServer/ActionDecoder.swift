import Foundation
import VRenderStudio

/// A POST body the server refuses: `message` names the field and what was wrong (400).
struct ActionDecodingError: Error, Equatable {
    let message: String
}

/// Reads a POST to `/api/ROUTE` into a `StudioAction`, strictly: unknown routes, fields and
/// values are refused with a message naming them, so a page bug shows instead of doing nothing.
enum ActionDecoder {
    /// The routes a page may POST to, below `/api/`.
    static let routes = ["record", "camera", "preview", "prompter", "takes/delete", "takes/order", "export", "export/cancel"]

    static func decode(route: String, body: [UInt8]) throws(ActionDecodingError) -> StudioAction {
        let fields = try object(body, route: route)
        var reader = FieldReader(route: route, fields: fields)
        let action: StudioAction
        switch route {
        case "record": action = .record(try reader.bool("record"))
        case "camera": action = try camera(&reader)
        case "preview": action = .previewFilter(try reader.string("filter"))
        case "prompter": action = try prompter(&reader)
        case "takes/delete": action = .deleteTake(file: try reader.string("file"))
        case "takes/order": action = .reorderTakes(files: try reader.strings("files"))
        case "export":
            // All optional: no filter, no prompter burnt in, no captions, no retakes cut.
            let filter = reader.fields["filter"] == nil ? "" : try reader.string("filter")
            action = .export(filter: filter, burnPrompter: try reader.bool("prompter", absent: false),
                             captions: try reader.bool("captions", absent: false), cutRetakes: try reader.bool("cutRetakes", absent: false))
        case "export/cancel": action = .cancelExport
        default: throw ActionDecodingError(message: "/api/\(route): no such action")
        }
        try reader.refuseUnread()
        return action
    }

    /// `{"lens"|"zoom"|"torch"|"flip"|"exposurePoint": ...}`: exactly one of them.
    private static func camera(_ reader: inout FieldReader) throws(ActionDecodingError) -> StudioAction {
        let names = ["lens", "zoom", "torch", "flip", "exposurePoint"]
        let given = names.filter { reader.fields[$0] != nil }
        guard given.count == 1 else {
            throw reader.failure("send exactly one of \(names.joined(separator: ", "))")
        }
        switch given[0] {
        case "lens":
            let lens = try reader.number("lens")
            guard [0.5, 1, 2].contains(lens) else { throw reader.failure("\"lens\" must be 0.5, 1 or 2, not \(lens)") }
            return .lens(lens)
        case "zoom": return .zoom(try reader.number("zoom"))
        case "torch": return .torch(try reader.bool("torch"))
        case "flip":
            guard try reader.bool("flip") else { throw reader.failure("\"flip\" must be true") }
            return .flip
        default:
            let point = try reader.fractions("exposurePoint", count: 2)
            return .exposurePoint(x: point[0], y: point[1])
        }
    }

    /// `{"command": "hold"|...}` or `{"box": [x, y, w, h]}`.
    private static func prompter(_ reader: inout FieldReader) throws(ActionDecodingError) -> StudioAction {
        switch (reader.fields["command"] != nil, reader.fields["box"] != nil) {
        case (true, false):
            let command = try reader.string("command")
            guard let action = StudioAction.PrompterAction(rawValue: command) else {
                let known = StudioAction.PrompterAction.allCases.map(\.rawValue).joined(separator: ", ")
                throw reader.failure("\"command\" must be one of \(known), not \"\(command)\"")
            }
            return .prompter(action)
        case (false, true):
            return .prompterBox(try reader.fractions("box", count: 4))
        default:
            throw reader.failure("send exactly one of command, box")
        }
    }

    /// The body as a JSON object; an empty body is `{}`.
    private static func object(_ body: [UInt8], route: String) throws(ActionDecodingError) -> [String: JSONValue] {
        if body.allSatisfy({ $0 == 0x20 || $0 == 0x0A || $0 == 0x0D || $0 == 0x09 }) { return [:] }
        guard let value = try? JSONDecoder().decode(JSONValue.self, from: Data(body)) else {
            throw ActionDecodingError(message: "/api/\(route): the body is not JSON")
        }
        guard case .object(let fields) = value else {
            throw ActionDecodingError(message: "/api/\(route): the body must be a JSON object")
        }
        return fields
    }
}

/// One JSON value, its kind kept (JSONDecoder tells a `true` from a `1`).
enum JSONValue: Decodable, Equatable {
    case null, bool(Bool), number(Double), string(String), array([JSONValue]), object([String: JSONValue])

    init(from decoder: any Decoder) throws {
        let container = try decoder.singleValueContainer()
        if container.decodeNil() { self = .null }
        else if let value = try? container.decode(Bool.self) { self = .bool(value) }
        else if let value = try? container.decode(Double.self) { self = .number(value) }
        else if let value = try? container.decode(String.self) { self = .string(value) }
        else if let value = try? container.decode([JSONValue].self) { self = .array(value) }
        else { self = .object(try container.decode([String: JSONValue].self)) }
    }
}

/// Takes the fields of one body by name and type, remembering which it read so the rest can
/// be refused as unknown.
private struct FieldReader {
    let route: String
    let fields: [String: JSONValue]
    private var read: Set<String> = []

    init(route: String, fields: [String: JSONValue]) {
        self.route = route
        self.fields = fields
    }

    func failure(_ message: String) -> ActionDecodingError {
        ActionDecodingError(message: "/api/\(route): \(message)")
    }

    mutating func value(_ name: String) throws(ActionDecodingError) -> JSONValue {
        guard let value = fields[name] else { throw failure("\"\(name)\" is missing") }
        read.insert(name)
        return value
    }

    mutating func bool(_ name: String) throws(ActionDecodingError) -> Bool {
        guard case .bool(let value) = try value(name) else { throw failure("\"\(name)\" must be true or false") }
        return value
    }

    /// `name`'s value, or `absent` when the body leaves it out.
    mutating func bool(_ name: String, absent: Bool) throws(ActionDecodingError) -> Bool {
        fields[name] == nil ? absent : try bool(name)
    }

    mutating func number(_ name: String) throws(ActionDecodingError) -> Double {
        guard case .number(let value) = try value(name), value.isFinite else { throw failure("\"\(name)\" must be a number") }
        return value
    }

    mutating func string(_ name: String) throws(ActionDecodingError) -> String {
        guard case .string(let value) = try value(name) else { throw failure("\"\(name)\" must be a string") }
        return value
    }

    mutating func strings(_ name: String) throws(ActionDecodingError) -> [String] {
        guard case .array(let items) = try value(name) else { throw failure("\"\(name)\" must be a list of names") }
        var names: [String] = []
        for item in items {
            guard case .string(let value) = item else { throw failure("\"\(name)\" must hold only names (strings)") }
            names.append(value)
        }
        return names
    }

    /// `count` numbers, each a fraction of the picture (0...1).
    mutating func fractions(_ name: String, count: Int) throws(ActionDecodingError) -> [Double] {
        guard case .array(let items) = try value(name), items.count == count else {
            throw failure("\"\(name)\" must be a list of \(count) numbers")
        }
        var numbers: [Double] = []
        for item in items {
            guard case .number(let value) = item, (0...1).contains(value) else {
                throw failure("\"\(name)\" must hold fractions of the picture (0 to 1)")
            }
            numbers.append(value)
        }
        return numbers
    }

    func refuseUnread() throws(ActionDecodingError) {
        if let unknown = fields.keys.sorted().first(where: { !read.contains($0) }) {
            throw failure("unknown field \"\(unknown)\"")
        }
    }
}

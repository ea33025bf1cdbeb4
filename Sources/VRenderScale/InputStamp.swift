import Foundation
import VRenderCore

/// A file as the plan saw it: size and modification time (nanoseconds), so that a take that
/// was replaced, trimmed or re-recorded after planning is noticed before any chunk renders.
public struct InputStamp: Codable, Sendable, Equatable {
    public var path: String
    public var bytes: Int64
    public var modifiedNanoseconds: Int64

    public init(path: String) throws {
        guard let status = FileNames.status(path) else { throw VRenderError.input(path, SystemError.last.reason("cannot be read")) }
        self.path = path
        bytes = Int64(status.st_size)
        modifiedNanoseconds = Int64(status.st_mtim.tv_sec) * 1_000_000_000 + Int64(status.st_mtim.tv_nsec)
    }

    func checkUnchanged(planPath: String) throws {
        let now: InputStamp
        do { now = try InputStamp(path: path) } catch {
            throw VRenderError.input(path, "is gone since \(planPath) was made; restore it, or make a new plan")
        }
        guard now == self else {
            throw VRenderError.input(path, "changed since \(planPath) was made (\(bytes) -> \(now.bytes) bytes, modified again); make a new plan (run without --resume) or restore it")
        }
    }
}

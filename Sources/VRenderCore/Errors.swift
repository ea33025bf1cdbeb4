import Foundation

/// The one error type users see. Every case names what was at fault (a file, a device, an
/// option) and why, so the CLI can print `vrender: error: <subject>: <why>` and exit 1.
public struct VRenderError: Error, CustomStringConvertible, Sendable, Equatable {
    public enum Kind: Sendable, Equatable {
        /// An input file is missing, unreadable, not a video or otherwise unusable.
        case input
        /// A command-line option or combination of options cannot be honoured.
        case option
        /// The output cannot be written (exists without --overwrite, disk full, ...).
        case output
        /// A library call failed at run time (encoder, muxer, ...).
        case runtime
        /// The user interrupted the work (Ctrl-C).
        case cancelled
    }

    public var kind: Kind
    /// What was at fault: a path, a device or an option such as `--size`.
    public var subject: String
    /// Why, in words a user can act on.
    public var reason: String

    public init(_ kind: Kind, subject: String, reason: String) {
        self.kind = kind
        self.subject = subject
        self.reason = reason
    }

    public static func input(_ path: String, _ reason: String) -> VRenderError {
        VRenderError(.input, subject: path, reason: reason)
    }

    public static func option(_ option: String, _ reason: String) -> VRenderError {
        VRenderError(.option, subject: option, reason: reason)
    }

    public static func output(_ path: String, _ reason: String) -> VRenderError {
        VRenderError(.output, subject: path, reason: reason)
    }

    public static let cancelled = VRenderError(.cancelled, subject: "interrupted", reason: "stopped by the user")

    public var description: String { "\(subject): \(reason)" }

    /// Runs `body`, letting a `VRenderError` through as it is and turning any other error (an
    /// FFmpeg or system error, which names the call that failed but not the file or device) into
    /// a `kind` error about `subject`, so what reaches the user always names what was at fault.
    public static func attributing<T>(to subject: String, as kind: Kind, _ body: () throws -> T) throws -> T {
        do {
            return try body()
        } catch let error as VRenderError {
            throw error
        } catch {
            throw VRenderError(kind, subject: subject, reason: "\(error)")
        }
    }
}

extension VRenderError {
    /// A Foundation file error as the system's reason when it carries one ("Permission
    /// denied", "Not a directory"), else its description: the "why" of a one-line error.
    public static func systemReason(_ error: any Error) -> String {
        let underlying = (error as NSError).userInfo[NSUnderlyingErrorKey] as? NSError
        if let code = underlying?.code, underlying?.domain == NSPOSIXErrorDomain {
            return SystemError(code: Int32(code)).description
        }
        return error.localizedDescription
    }
}

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// A failed libc call's `errno`, and `strerror`'s text for it: the one place vrender reads
/// `errno`. Read it straight after the call that failed, before anything else can change it.
public struct SystemError: Error, Sendable, Equatable, CustomStringConvertible {
    public let code: Int32

    public init(code: Int32) {
        self.code = code
    }

    /// The `errno` the last failed call on this thread left.
    public static var last: SystemError { SystemError(code: errno) }

    /// `strerror`'s text: "No such file or directory".
    public var description: String { String(cString: strerror(code)) }

    /// "what (text)": a reason for a `VRenderError` ("cannot write (No space left on device)").
    public func reason(_ what: String) -> String { "\(what) (\(description))" }
}

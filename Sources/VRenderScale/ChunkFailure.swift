import Foundation
import VRenderCore

/// A chunk that failed every attempt: the export's error, with the log to read.
enum ChunkFailure {
    static func error(chunk: Int, tries: Int, log: String) -> VRenderError {
        let tail = (try? String(contentsOfFile: log, encoding: .utf8))
            .map { $0.split(separator: "\n").suffix(3).joined(separator: " | ") } ?? ""
        let ending = tail.isEmpty ? "" : "; it ends: \(tail)"
        return VRenderError(.runtime, subject: "chunk \(chunk)",
                            reason: "failed \(tries) time(s); its log is \(log)\(ending). The rendered chunks are kept: fix the cause and run again with --resume")
    }
}

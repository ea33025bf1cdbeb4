import FuzzSupport
import VRenderCapture
import VRenderCore

// Fuzz target: `ActionScript(text:source:)`, the parser of `vrender capture --script FILE`.
// A script either parses into actions that keep the grammar's promises (checked below) or is
// refused with an input error naming `source:line`; anything else is a finding.

private let source = "fuzz.actions"

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzActionScript(_ data: UnsafePointer<UInt8>?, _ size: Int) -> CInt {
    let text = FuzzInput(data, size).text
    do {
        checkPromises(try ActionScript(text: text, source: source), lineCount: lineCount(text))
    } catch let error as VRenderError {
        precondition(error.kind == .input && error.subject.hasPrefix(source + ":"),
                     "a refused script must name \(source):LINE, got \(error)")
    } catch {
        preconditionFailure("ActionScript threw something other than a VRenderError: \(error)")
    }
    return 0
}

/// Lines as the parser counts them (split on "\n", a trailing empty line included).
private func lineCount(_ text: String) -> Int {
    text.utf8.reduce(1) { $1 == UInt8(ascii: "\n") ? $0 + 1 : $0 }
}

/// What the grammar promises: times finite, non-negative and sorted (equal times in file order),
/// lines within the file, `stopTime` the first stop's time, and only the values it accepts.
private func checkPromises(_ script: ActionScript, lineCount: Int) {
    for (earlier, later) in zip(script.actions, script.actions.dropFirst()) {
        precondition(earlier.time < later.time || (earlier.time == later.time && earlier.line < later.line),
                     "actions out of order: line \(earlier.line) before line \(later.line)")
    }
    for action in script.actions {
        precondition(action.time.isFinite && action.time >= 0, "line \(action.line): bad time \(action.time)")
        precondition((1...lineCount).contains(action.line), "line \(action.line) outside 1...\(lineCount)")
        checkCommand(action.command, line: action.line)
    }
    precondition(script.stopTime == script.actions.first { $0.command == .stop }?.time)
}

private func checkCommand(_ command: ActionScript.Command, line: Int) {
    guard case .control(let control) = command else { return }
    switch control {
    case .zoom(let factor):
        precondition(factor.isFinite, "line \(line): zoom \(factor)")
    case .rampZoom(let factor, let rate):
        precondition(factor.isFinite && rate.isFinite, "line \(line): ramp \(factor) \(rate)")
    case .lens(let factor):
        precondition([0.5, 1, 2].contains(factor), "line \(line): lens \(factor)")
    case .torch(let level):
        precondition(level.isFinite, "line \(line): torch \(level)")
    case .pointOfInterest(let x, let y):
        precondition(x.isFinite && y.isFinite, "line \(line): focus \(x) \(y)")
    case .audioGap(let seconds):
        precondition(seconds.isFinite && seconds >= 0, "line \(line): audio-gap \(seconds)")
    case .flip, .clap:
        break
    }
}

internal import CRowKernels
import Foundation
import VRenderCore

/// Which row kernels the CPU filters and the tone mapper run: the portable Swift ones (any
/// x86-64 or ARM machine), the AVX2 ones (x86-64-v3: most laptops and cloud machines; curves
/// looked up with gathers) or the AVX-512 ones (F, BW, VL and VBMI: a 256-entry curve fits in
/// four registers and costs five instructions per 64 samples), both in `CRowKernels`. All give
/// the definition's bytes; the tests run every program through each variant this machine has.
public enum RowInstructions: String, Sendable, CaseIterable {
    case portable
    case avx2
    case avx512

    /// The environment variable that picks a variant (`portable`, `avx2` or `avx512`), to compare
    /// them on one machine or to rule the wide ones out.
    public static let environmentVariable = "VRENDER_CPU"

    /// What this process runs: the variant `VRENDER_CPU` names when this CPU runs it, else the
    /// widest this CPU runs. The command line refuses a variant it cannot run
    /// (`environmentRefusal`) before any command starts; a library client falls back.
    public static let detected: RowInstructions = {
        if let asked = requested.flatMap(RowInstructions.init(rawValue:)), available.contains(asked) { return asked }
        return available.last!
    }()

    /// Every variant this machine can run, narrowest first (the portable kernels always).
    public static let available: [RowInstructions] = {
        var kinds = [RowInstructions.portable]
        if vr_cpu_avx2() != 0 { kinds.append(.avx2) }
        if vr_cpu_avx512() != 0 { kinds.append(.avx512) }
        return kinds
    }()

    /// Why `VRENDER_CPU` cannot be followed here (an unknown name, or a variant this CPU lacks),
    /// naming what it can run; nil when it is unset, empty or runnable.
    public static var environmentRefusal: VRenderError? { refusal(of: requested) }

    /// Why `VRENDER_CPU=asked` cannot be followed on this machine, or nil.
    static func refusal(of asked: String?) -> VRenderError? {
        guard let asked, !asked.isEmpty else { return nil }
        let runs = "this CPU runs " + available.map(\.rawValue).joined(separator: ", ")
        guard let kind = RowInstructions(rawValue: asked) else {
            let names = allCases.map(\.rawValue).joined(separator: ", ")
            return .option("\(environmentVariable)=\(asked)", "is not one of \(names) (\(runs))")
        }
        guard available.contains(kind) else {
            return .option("\(environmentVariable)=\(asked)", "this CPU has no \(kind.features) (\(runs))")
        }
        return nil
    }

    /// The CPU features the variant needs, as `doctor` and the refusal name them.
    public var features: String {
        switch self {
        case .portable: return "x86-64 or ARM baseline"
        case .avx2: return "AVX2"
        case .avx512: return "AVX-512 F, BW, VL and VBMI"
        }
    }

    /// What `doctor` and the benchmarks say of the variant in use: "avx2 (AVX2; this CPU also
    /// runs portable)" or "portable (VRENDER_CPU=portable; this CPU also runs avx2, avx512)".
    public static var summary: String {
        let chosen = requested.map { $0 == detected.rawValue ? "\(environmentVariable)=\($0)" : nil } ?? nil
        let others = available.filter { $0 != detected }.map(\.rawValue)
        let reasons = [chosen ?? detected.features] + (others.isEmpty ? [] : ["this CPU also runs " + others.joined(separator: ", ")])
        return "\(detected.rawValue) (\(reasons.joined(separator: "; ")))"
    }

    private static var requested: String? {
        ProcessInfo.processInfo.environment[environmentVariable]
    }
}

extension RowInstructions {
    /// Bytes a table the AVX2 kernels gather from must be readable past its end: a gather
    /// loads 32 bits at an entry's address and keeps its low byte or two.
    static let gatherPadding = 4
}

import FuzzSupport
import VRenderMedia

// Fuzz target: a file as `vrender concat` first meets it. The input is written to a file, probed
// (`Probe.probe`: open, find stream info, describe the streams), then demuxed to the end the way
// the export reads takes, decoding the first few video packets. Any error thrown is a correct
// answer to a bad file; only a crash, a sanitizer report, a hang or a memory blow-up is a finding.

/// Video packets decoded per input: enough to reach the decoder's header and slice parsing, few
/// enough that an input still runs in milliseconds.
private let packetsToDecode = 4

@_cdecl("LLVMFuzzerInitialize")
public func initialize(_ argc: UnsafeMutablePointer<CInt>?, _ argv: UnsafeMutablePointer<UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?>?) -> CInt {
    FFmpegLog.configure(verbose: false)   // FFmpeg's complaints about every bad input drown libFuzzer's lines
    return 0
}

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzMedia(_ data: UnsafePointer<UInt8>?, _ size: Int) -> CInt {
    // No extension: FFmpeg picks the demuxer from the content alone, as for a file misnamed by a user.
    let path = FuzzScratch.path("input")
    FuzzInput(data, size).write(to: path)
    let info = try? Probe.probe(path)
    if let info {
        precondition(info.video.width > 0 && info.video.height > 0, "Probe accepted a video without a picture size")
    }
    readEveryPacket(path, decodingStream: info?.video.index)
    return 0
}

/// Demuxes `path` to its end (or its first read error), decoding the first packets of stream
/// `videoIndex` on one thread (no frame threads: an input must be cheap and deterministic).
private func readEveryPacket(_ path: String, decodingStream videoIndex: Int?) {
    guard let demuxer = try? Demuxer(path: path) else { return }
    let decoder = videoIndex.flatMap { try? Decoder(demuxer: demuxer, streamIndex: $0, threads: 1) }
    let packet = Packet()
    var decoded = 0
    while demuxer.read(into: packet) {
        guard let decoder, packet.streamIndex == decoder.streamIndex, decoded < packetsToDecode else { continue }
        decoded += 1
        try? decoder.decode(packet, makeFrame: { Frame() }, output: { _ in })
    }
    try? decoder?.decode(nil, makeFrame: { Frame() }, output: { _ in })   // flush: frames held back come out
}

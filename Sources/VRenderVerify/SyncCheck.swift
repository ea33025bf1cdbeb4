import Foundation
import VRenderCore
import VRenderMedia
import VRenderTakes

/// `vrender sync`: sound against picture in a recorded or exported file, from the synthetic
/// clapper (the camera's top-left patch lit white on each clap, the microphone's click at the
/// same instant). Decodes as a player would (edit lists, start times and gaps honoured: the
/// demuxer's and the decoder's own timing), pairs each flash with the nearest click within half
/// a second and judges offset = click onset − flash time.
///
/// Clicks are found against the file's own level (`SyncSound`), so levelled sound (`concat
/// --loudness`) is judged as the take was. A flash whose patch is blended (a dissolve or fade)
/// and one with no sound around it (a take's edge, whose sound starts after its first picture)
/// are skipped, counted apart, never failed; a flash with sound but no click fails.
package enum SyncCheck {
    package static let defaultLimitMs = 5.0
    /// A click further than this from a flash does not belong to it.
    static let pairWindow = 0.5

    /// Judges `path`: a file, or a folder of takes (those its takes.json lists, else its video
    /// files by name, as `vrender concat` reads a folder).
    /// - Throws: `VRenderError.input` naming the file or folder that cannot be read.
    package static func check(_ path: String, limitMs: Double = defaultLimitMs) throws -> SyncSummary {
        var isFolder: ObjCBool = false
        guard FileManager.default.fileExists(atPath: path, isDirectory: &isFolder) else {
            throw VRenderError.input(path, "no such file or folder")
        }
        let files = isFolder.boolValue ? try TakesFolder.takePaths(in: path).paths : [path]
        let reports = try files.map { try measure($0, limitMs: limitMs) }
        return SyncSummary(limitMs: limitMs, ok: reports.allSatisfy(\.passed), files: reports)
    }

    /// Judges one file.
    package static func measure(_ path: String, limitMs: Double = defaultLimitMs) throws -> SyncReport {
        let info = try Probe.probe(path)
        let flashes = SyncPictures.flashes(try SyncPictures.lumas(path: path))
        var report = SyncReport(file: path, flashes: flashes.count, clicks: 0, pairs: [], skipped: [], flashesWithoutClick: [],
                                limitMs: limitMs, verdict: .unjudged)
        guard let audio = info.audioTracks.first else {
            report.message = "no sound to judge: the file has no audio track"
            return report
        }
        guard !flashes.isEmpty else {
            report.message = "no clapper flashes: the top-left patch never lights (record with --device synthetic and --audio synthetic)"
            return report
        }
        let sound = try SyncSound.read(path: path, stream: audio.index, from: min(info.video.startTime, audio.startTime))
        let found = sound.clicks(expected: flashes.count { !$0.blended })
        report.clicks = found.clicks.count
        pair(flashes, found.clicks, sound: sound, reference: found.reference, into: &report)
        judge(&report)
        return report
    }

    /// Each whole flash with its nearest click; blended and unheard flashes skipped.
    static func pair(_ flashes: [SyncFlash], _ clicks: [SyncClick], sound: SyncSound, reference: Float,
                     into report: inout SyncReport) {
        for flash in flashes {
            if flash.blended {
                report.skipped.append(.init(flash: flash.time, reason: "transition"))
                continue
            }
            let nearest = clicks.min { abs($0.time - flash.time) < abs($1.time - flash.time) }
            if let nearest, abs(nearest.time - flash.time) <= pairWindow {
                report.pairs.append(.init(flash: flash.time, click: nearest.time,
                                          offsetMs: ((nearest.time - flash.time) * 1_000_000).rounded() / 1000))
            } else if sound.isSilent(at: flash.time - 0.002, milliseconds: 12, reference: reference) {
                report.skipped.append(.init(flash: flash.time, reason: "silence"))
            } else {
                report.flashesWithoutClick.append(flash.time)
            }
        }
    }

    /// The offsets' median and maximum, and the verdict.
    static func judge(_ report: inout SyncReport) {
        let offsets = report.pairs.map { abs($0.offsetMs) }.sorted()
        report.medianAbsOffsetMs = offsets.isEmpty ? nil : offsets[offsets.count / 2]
        report.maxAbsOffsetMs = offsets.last
        var problems: [String] = []
        if let worst = offsets.last, worst > report.limitMs {
            let over = report.pairs.count { abs($0.offsetMs) > report.limitMs }
            problems.append("\(over) of \(offsets.count) offsets over the limit")
        }
        if !report.flashesWithoutClick.isEmpty {
            problems.append("\(report.flashesWithoutClick.count) flashes with sound but no click (first at "
                            + String(format: "%.3f s)", report.flashesWithoutClick[0]))
        }
        if !problems.isEmpty {
            report.verdict = .fail
            report.message = problems.joined(separator: "; ")
        } else if offsets.isEmpty {
            report.verdict = .unjudged
            report.message = report.clicks == 0 ? "no clicks found in the sound" : "every flash skipped: nothing to judge"
        } else {
            report.verdict = .ok
        }
    }
}

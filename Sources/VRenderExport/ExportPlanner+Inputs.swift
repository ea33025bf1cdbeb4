import Foundation
import VRenderAlignment
import VRenderCore
import VRenderImaging
import VRenderMedia
import VRenderTakes

/// The export's inputs: takes folders, concat lists and files resolved into takes with their
/// trims, then probed (and cut where --trim-silence/--cut-pauses ask); and the other files the
/// options name, checked before any is read.
extension ExportPlanner {
    /// One take to join: its file, and the part of it to use.
    package struct Input: Sendable, Equatable {
        package var path: String
        package var trim: TakeTrim?
        /// A concat list's entry, whose in and out points are on the file's clock: its trim is
        /// known once the file is probed (`ConcatList.Entry.trim(of:)`).
        package var listEntry: ConcatList.Entry?

        package init(path: String, trim: TakeTrim?, listEntry: ConcatList.Entry? = nil) {
            (self.path, self.trim, self.listEntry) = (path, trim, listEntry)
        }

        /// How the plan's note names the part used: "0.500–3.500 s", "inpoint 0.200 s outpoint 0.800 s".
        var trimText: String? {
            listEntry.flatMap { $0.isTrimmed ? $0.pointsText : nil } ?? trim?.description
        }
    }

    /// Inputs as files: a takes folder becomes its takes in recording order (with the trims
    /// takes.json gives them), a concat list (`ConcatList`) its files with their in and out
    /// points. Notices say how a folder or a list was read.
    package static func resolveInputs(_ options: ExportOptions) throws -> (takes: [Input], notices: [String]) {
        var takes: [Input] = []
        var notices: [String] = []
        if let trims = options.inputTrims {
            guard trims.count == options.inputs.count else {
                throw VRenderError.option("inputs", "\(trims.count) trims for \(options.inputs.count) inputs")
            }
            return (zip(options.inputs, trims).map { Input(path: $0, trim: $1) }, [])
        }
        for input in options.inputs {
            if let status = FileNames.status(input), status.st_mode & S_IFMT == S_IFDIR {
                let folder = try TakesFolder.takeInputs(in: input)
                takes += folder.takes.map { Input(path: $0.path, trim: $0.trim) }
                if folder.order == .fileNames {
                    notices.append("\(input): no takes.json, so its \(folder.takes.count) video file(s) are joined in file-name order")
                }
            } else if ConcatList.isList(input) {
                let list = try ConcatList(path: input)
                takes += list.entries.map { Input(path: $0.path, trim: nil, listEntry: $0) }
                notices += list.notices
            } else {
                takes.append(Input(path: input, trim: nil))
            }
        }
        // Files only (a glob of takes): takes.json's order and trims do not apply; say so when they differ.
        if takes.count == options.inputs.count, takes.allSatisfy({ $0.listEntry == nil }),
           let note = TakesFolder.fileOrderNote(for: options.inputs) { notices.append(note) }
        if takes.contains(where: { $0.trimText != nil }) {
            notices.append("trims: " + takes.enumerated().compactMap { index, take in
                take.trimText.map { "take \(index + 1) \($0)" }
            }.joined(separator: ", "))
        }
        return (takes, notices)
    }

    /// Probes every input (on the budget's processors, `options.threads`, `InOrderMap`), trims
    /// it, aligns it to its script and cuts its retakes and silences (`cut`); the first
    /// unusable one, in order, stops everything before any output exists.
    static func probeInputs(_ options: ExportOptions) throws -> ProbedInputs {
        let inputs = try resolveInputs(options)
        var records = TakeRecords(names: options.inputNames, purpose: "its takes are aligned as files vrender did not record")
        let entries = inputs.takes.map { records.entry(for: $0.path) }
        let probed = try InOrderMap.map(inputs.takes.count, threads: options.threads.processors) { index in
            let input = inputs.takes[index]
            let info = try Probe.probe(input.path)
            return (info: info, trim: try input.listEntry?.trim(of: info) ?? input.trim)
        }
        // One take after another, in order: espeak-ng's reading of a line depends a little on
        // what it read before (`SpeechSynthesizer`), so every plan of this export (one pass, a
        // chunked export's) must ask for the same readings in the same order.
        let font = try options.script.map { _ in try TextFont() }
        let aligned = try probed.indices.map { index -> TakeAlignment? in
            guard let script = options.script, let font else { return nil }
            let record = entries[index]
            return try TakeAlignment.align(path: probed[index].info.path, name: record.file, entry: record.entry, number: index + 1,
                                           folder: try? FolderHandle.open(record.directory), context: script.context(font: font))
        }
        let read = try InOrderMap.map(inputs.takes.count, threads: options.threads.processors) { index in
            var cut = try cut(probed[index].info, trim: probed[index].trim, number: index + 1, options: options, alignment: aligned[index])
            let take = options.inputTakes.map { $0.indices.contains(index) ? $0[index] : index + 1 } ?? index + 1
            for part in cut.parts.indices { cut.parts[part].sourceTake = take }
            return cut
        }
        let notes = read.flatMap(\.notes)
        var notices = inputs.notices + records.notices + notes
        if let silence = options.silence, !notes.contains(where: { $0.hasPrefix("silence: ") }) {
            notices.append("silence: no take has silence below \(ValueSyntax.text(silence.threshold)) dBFS to cut")
        }
        if options.script?.cutRetakes == true, !notes.contains(where: { $0.hasPrefix("retake: ") }) {
            notices.append("retake: no line was broken off and read again")
        }
        var alignments: [String: TakeAlignment] = [:]
        for (input, alignment) in zip(inputs.takes, aligned) { alignments[input.path] = alignment }
        return ProbedInputs(takes: read.flatMap(\.parts), notices: notices, alignments: alignments)
    }

    /// `--timings FILE`: a folder that exists, and neither the output nor an input.
    static func checkTimingsOutput(_ options: ExportOptions) throws {
        guard let path = options.timingsOutput else { return }
        for other in options.inputs + [options.output] where OutputFile.isSameFile(other, path) {
            throw VRenderError.output(path, "is also \(other == options.output ? "the output" : "an input"); give --timings a file of its own")
        }
        try AtomicFile(path: path).checkTarget()
    }
}

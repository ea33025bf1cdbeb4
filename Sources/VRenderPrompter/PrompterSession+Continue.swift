/// A new session in a folder that holds takes of its script continues from where the last of
/// them left it (docs/prompter.md, "A new session"):
///
/// - the last take of the same script (`isSameScript`) stopped part-way: the scroll starts
///   where it ended, and the notice says so (and how to start over, `restartHint`);
/// - it reached the end of the script: the whole script was read, so the next take is read from
///   the top again (at the end the box would show nothing new to read), and the notice says so;
/// - it stopped at the top, or the folder has no take of this script: from the top, no notice.
extension PrompterSession {
    /// Whether `record` is a take of this session's script: the same text when both kept its
    /// hash (`PrompterScript.hash`); else (takes.json from before the hash) the same file name,
    /// however the path to it was written.
    public func isSameScript(_ record: PrompterTakeRecord) -> Bool {
        if let scriptHash, let recorded = record.scriptHash { return scriptHash == recorded }
        return Self.fileName(record.script) == Self.fileName(scriptName)
    }

    /// Continues from where `record`, take `number` (1 on, as listed), the last take of this
    /// script in the folder, left the scroll; before any take starts. Returns the notice for
    /// the user, nil when the scroll starts at the top as it would anyway.
    public mutating func continueAfter(_ record: PrompterTakeRecord, take number: Int) -> String? {
        let (offset, atEnd) = place(after: record)
        if atEnd { return "prompter: take \(number) reached the end of the script; starting from the top" }
        guard offset > 0 else { return nil }
        move(to: offset, at: scroll.anchor.time)
        let percent = Int((scroll.anchor.offset / scroll.maxOffset * 100).rounded(.down))
        return "prompter: continuing from \(percent)% (where take \(number) ended"
            + (restartHint.map { "; \($0)" } ?? "") + ")"
    }

    /// Where `record` left the box, in this session's layout: its end offset at the font size
    /// it ended with, taken to the same words at this session's size (the presenter's place,
    /// kept in words, as a size key keeps it). `atEnd`: the script's end was in view.
    func place(after record: PrompterTakeRecord) -> (offset: Double, atEnd: Bool) {
        let endSize = record.anchors.last?.fontSize ?? record.fontSize
        let ended = endSize == settings.fontSize ? text : layout(endSize)
        let endMax = Swift.max(0, ended.contentHeight - viewportHeight)
        guard endMax > 0, record.endOffset.isFinite, record.endOffset > 0 else { return (0, false) }
        if record.endOffset >= endMax - 1e-6 { return (0, true) }
        guard endSize != settings.fontSize else { return (Swift.min(record.endOffset, scroll.maxOffset), false) }
        let offset = ended.place(at: record.endOffset).map { text.offset(showing: $0) } ?? 0
        return (Swift.min(offset, scroll.maxOffset), false)
    }

    /// The last part of a path: `./talk.txt`, `talk.txt` and `/home/me/talk.txt` name one script.
    private static func fileName(_ path: String) -> Substring {
        path.split(separator: "/", omittingEmptySubsequences: true).last ?? Substring(path)
    }
}

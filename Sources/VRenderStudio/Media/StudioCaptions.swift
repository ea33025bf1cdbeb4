import Foundation
import Synchronization
import VRenderAlignment
import VRenderCore
import VRenderImaging
import VRenderPrompter
import VRenderTakes

/// A take's captions under its player: the prompter's script aligned to the take
/// (`TakeAlignment`), as WebVTT, made on the first request into the proxies folder beside the
/// take's playable copy (which shows the take on the same clock) and served from there. The
/// file notes the script it was made from: a studio started again with an edited script
/// makes it anew.
enum StudioCaptions {
    /// One alignment at a time: a page asking twice waits for the first file.
    private static let making = Mutex(())

    /// `take-0001.vtt` for `take-0001.mov`.
    static func name(of take: String) -> String {
        ((take as NSString).deletingPathExtension) + ".vtt"
    }

    /// The captions file of `take` in `proxies`, made first when it is not there: nil when the
    /// take cannot be read or has no sound (the page then shows no captions).
    static func location(of take: String, script: PrompterScript, takes: FolderHandle,
                         proxies: FolderHandle) -> MediaLocation? {
        let name = name(of: take)
        let note = note(on: script)
        // What the file starts with when it was made from this script.
        let stamp = Array(CaptionFormat.vtt.text([], note: note).utf8)
        return making.withLock { _ in
            // (Captions of an hour's take are a few hundred kilobytes.)
            if (try? proxies.readFile(name, limit: 1 << 24))?.starts(with: stamp) != true {
                guard let manifest = try? TakesManifest.load(in: takes),
                      let number = manifest.takes.firstIndex(where: { $0.file == take }),
                      let file = try? TakesFolder.openTake(take, in: takes, entry: number + 1),
                      let font = try? TextFont(),
                      let aligned = try? TakeAlignment.align(path: file.readablePath, name: take, entry: manifest.takes[number],
                                                             number: number + 1, folder: takes,
                                                             context: TakeAlignment.Context(script: script, voice: nil, font: font))
                else { return nil }
                let cues = CaptionCues.cues(for: aligned.alignment.words, script: aligned.words)
                let text = CaptionFormat.vtt.text(cues, note: note)
                guard (try? Array(text.utf8).withUnsafeBytes({ try AtomicFile.write($0, in: proxies, name: name) })) != nil
                else { return nil }
            }
            return MediaLocation(folder: proxies, name: name)
        }
    }

    /// The note naming the script by a hash of its text (FNV-1a, 64 bits: a cache's key, not a
    /// seal).
    static func note(on script: PrompterScript) -> String {
        var hash: UInt64 = 0xcbf2_9ce4_8422_2325
        for byte in script.text.utf8 {
            hash = (hash ^ UInt64(byte)) &* 0x0000_0100_0000_01b3
        }
        let hex = String(hash, radix: 16)
        return "vrender script \(String(repeating: "0", count: 16 - hex.count) + hex)"
    }
}

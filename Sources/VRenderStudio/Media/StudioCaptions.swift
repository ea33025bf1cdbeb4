import Foundation
import Synchronization
import VRenderAlignment
import VRenderCore
import VRenderImaging
import VRenderPrompter
import VRenderTakes

/// A take's captions under its player: the prompter's script aligned to the take
/// (`TakeAlignment`), as WebVTT, made on the first request into the proxies folder beside the
/// take's playable copy (which shows the take on the same clock) and served from there.
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
        return making.withLock { _ in
            if proxies.status(name) == nil {
                guard let manifest = try? TakesManifest.load(in: takes),
                      let number = manifest.takes.firstIndex(where: { $0.file == take }),
                      let file = try? TakesFolder.openTake(take, in: takes, entry: number + 1),
                      let font = try? TextFont(),
                      let aligned = try? TakeAlignment.align(path: file.readablePath, name: take, entry: manifest.takes[number],
                                                             number: number + 1, folder: takes,
                                                             context: TakeAlignment.Context(script: script, voice: nil, font: font))
                else { return nil }
                let cues = CaptionCues.cues(for: aligned.alignment.words, script: aligned.words)
                guard (try? Array(CaptionFormat.vtt.text(cues).utf8).withUnsafeBytes({ try AtomicFile.write($0, in: proxies, name: name) })) != nil
                else { return nil }
            }
            return MediaLocation(folder: proxies, name: name)
        }
    }
}

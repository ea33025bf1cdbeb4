import Foundation
import VRenderRecording
import VRenderTakes

/// The take strip: takes.json's takes as the page shows them.
enum StudioTakes {
    /// The takes in takes.json's order, with the URLs of their thumbnail and playable copy;
    /// none before the first take (no takes.json yet). Throws for a damaged takes.json or one
    /// whose entries lead outside the folder.
    static func list(folder: String, proxies: ProxyMaker?) throws -> [StudioState.TakeInfo] {
        guard FileManager.default.fileExists(atPath: TakesFolderPaths.join(folder, TakesManifest.fileName)) else { return [] }
        let manifest = try TakesFolder.manifest(in: folder)
        return manifest.takes.enumerated().map { index, take in
            let proxy = proxies?.state(of: take.file)
            return StudioState.TakeInfo(
                number: index + 1, file: take.file, duration: take.duration, frames: take.frames, dropped: take.dropped,
                hasSound: take.audio != nil,
                thumbnailURL: take.thumbnail.map { "/media/\(MediaKind.thumbnails.rawValue)/" + urlComponent($0) },
                proxyURL: proxy == .ready ? "/media/\(MediaKind.proxies.rawValue)/" + urlComponent(ProxyMaker.proxyName(of: take.file)) : nil,
                proxyState: proxy ?? (proxies == nil ? .failed : .waiting), problem: take.check?.isGood == false ? take.check?.problem : nil)
        }
    }

    /// A file name as one URL path component.
    static func urlComponent(_ name: String) -> String {
        var allowed = CharacterSet.urlPathAllowed
        allowed.remove("/")
        return name.addingPercentEncoding(withAllowedCharacters: allowed) ?? name
    }
}

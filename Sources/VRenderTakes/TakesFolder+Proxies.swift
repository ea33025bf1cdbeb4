import Foundation
import VRenderCore

/// The studio's playable copies of takes (TAKES/proxies/<take stem>.mp4) are named here, so
/// that whatever removes a take (`takes rm`, the studio) removes its copy too.
extension TakesFolder {
    /// The folder inside a takes folder that holds the takes' playable copies.
    public static let proxiesFolderName = "proxies"

    /// The proxy's file name for a take: its stem with ".mp4".
    public static func proxyName(of file: String) -> String {
        ((file as NSString).lastPathComponent as NSString).deletingPathExtension + ".mp4"
    }

    /// Removes a take's proxy, if there is one: a plain file in a proxies folder that is a real
    /// folder (neither is followed when it is a link). Nothing else is touched.
    static func removeProxy(of file: String, in folder: FolderHandle) {
        guard let info = folder.status(proxiesFolderName), info.st_mode & S_IFMT == S_IFDIR,
              let proxies = try? folder.folder(proxiesFolderName) else { return }
        let name = proxyName(of: file)
        guard let proxy = proxies.status(name), proxy.st_mode & S_IFMT == S_IFREG else { return }
        _ = proxies.remove(name)
    }
}

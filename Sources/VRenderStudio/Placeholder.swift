import Hummingbird
import HummingbirdWebSocket

func pageBytes() -> [UInt8] { PackageResources.index_html }

import Dispatch
import Foundation
import RizqCore

extension OpenSuite {
    /// The app whose suite this is (the folder it sits in), or `nil` for an app group.
    var appID: String? {
        location.isGroup ? nil : PrivateFolder.name(of: location.directory)
    }

    /// What reads the suite's layers.
    var layerReader: LayerReader {
        LayerReader(folders: layerFolders, location: location, appID: appID ?? "")
    }

    /// Reads the suite's layers and hands them to the memory (``SuiteMemory/replaceLayers(_:)``):
    /// at open, on `queue` after a layer file changed, and on `synchronize()`.
    func readLayers() {
        let read = layerReader.read()
        memory.replaceLayers(read)
        layersInForce.store(!read.isEmpty, ordering: .releasing)
    }

    /// Follows the folders the layers are read from, whether or not they exist yet
    /// (``LayerWatcher``): each an administrator's folder for the suite's file and its `.d`
    /// drop-ins, and each folder an installed schema may be in. Where a folder of
    /// `$XDG_CONFIG_DIRS` (or `$XDG_DATA_DIRS`) has no `rizq-prefs` in it at all — the usual case —
    /// the suite only waits for one to appear there, and follows its own folders from then on.
    func watchLayers() {
        let reader = layerReader
        let suiteName = location.suiteName
        for (index, configDirectory) in layerFolders.configDirectories.enumerated() {
            whenLayersMayExist(under: configDirectory) { [weak self] in
                for layer in [ValueSource.Layer.managed, .defaults] {
                    let base = reader.layerBases(layer)[index]
                    LayerWatcher.shared.watch(folder: PrivateFolder.parent(of: base), names: [suiteName + ".json", suiteName + ".d"], base: configDirectory) {
                        [weak self] in self?.layersChanged()
                    }
                    LayerWatcher.shared.watch(folder: base + ".d", names: nil, base: configDirectory) { [weak self] in self?.layersChanged() }
                }
                self?.layersChanged()
            }
        }
        for (path, dataDirectory) in zip(reader.schemaPaths, layerFolders.dataDirectories) {
            whenLayersMayExist(under: dataDirectory) { [weak self] in
                LayerWatcher.shared.watch(folder: PrivateFolder.parent(of: path), names: [PrivateFolder.name(of: path)], base: dataDirectory) {
                    [weak self] in self?.layersChanged()
                }
                self?.layersChanged()
            }
        }
    }

    /// Runs `follow` now when `<directory>/rizq-prefs` exists (or `directory` itself does not:
    /// the watcher then follows it from the nearest folder above), else once it appears.
    private func whenLayersMayExist(under directory: String, _ follow: @escaping @Sendable () -> Void) {
        var info = stat()
        if lstat(directory + "/rizq-prefs", &info) == 0 || stat(directory, &info) != 0 {
            follow()
        } else {
            LayerWatcher.shared.whenAppears("rizq-prefs", in: directory, follow)
        }
    }

    /// Called on the watcher's thread when a layer file may have changed: one reading scheduled.
    func layersChanged() {
        guard !layersReloadScheduled.exchange(true, ordering: .acquiringAndReleasing) else { return }
        queue.async { [self] in
            // Cleared before the files are read: an event from now on schedules another reading.
            layersReloadScheduled.store(false, ordering: .releasing)
            readLayers()
        }
    }
}

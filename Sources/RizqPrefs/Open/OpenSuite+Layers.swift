import Dispatch
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
    /// drop-ins, and each folder an installed schema may be in.
    func watchLayers() {
        let reader = layerReader
        let suiteName = location.suiteName
        for layer in [ValueSource.Layer.managed, .defaults] {
            for (base, configDirectory) in zip(reader.layerBases(layer), layerFolders.configDirectories) {
                LayerWatcher.shared.watch(folder: PrivateFolder.parent(of: base), names: [suiteName + ".json", suiteName + ".d"], base: configDirectory) { [weak self] in
                    self?.layersChanged()
                }
                LayerWatcher.shared.watch(folder: base + ".d", names: nil, base: configDirectory) { [weak self] in self?.layersChanged() }
            }
        }
        for (path, dataDirectory) in zip(reader.schemaPaths, layerFolders.dataDirectories) {
            LayerWatcher.shared.watch(folder: PrivateFolder.parent(of: path), names: [PrivateFolder.name(of: path)], base: dataDirectory) { [weak self] in
                self?.layersChanged()
            }
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

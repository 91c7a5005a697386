#if Configuration
// MountedFolderProvider takes and gives RizqMounts' types (MountedFolder, its Sensitivity,
// MountWarning, MountError): an app that imports RizqConfiguration
// names them without a second import.
@_exported import RizqMounts
#endif

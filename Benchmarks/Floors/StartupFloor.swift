// The start-up floors of scripts/bench's `cli-get` and `cli-set` rows: a Swift program linked as
// the installed rizq-prefs is (scripts/build-static --program), which reads the file its argument
// names and prints its size — what any Swift command-line tool that reads a file pays before its
// own work. Built twice: importing Foundation, as rizq-prefs does, and with -D ESSENTIALS
// importing FoundationEssentials only (no swift-corelibs Foundation, no ICU).
#if ESSENTIALS
import FoundationEssentials
#else
import Foundation
#endif

let path = CommandLine.arguments.dropFirst().first ?? "/dev/null"
print(FileManager.default.contents(atPath: path)?.count ?? 0)

import Foundation
import KeyedCommands

exit(KeyedTool.main(Array(CommandLine.arguments.dropFirst())))

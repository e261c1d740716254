import BatonCLI

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

exit(await BatonCommandLine.run(Array(CommandLine.arguments.dropFirst())))

import BatonCLI

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

exit(BatonCommandLine.run(Array(CommandLine.arguments.dropFirst())))

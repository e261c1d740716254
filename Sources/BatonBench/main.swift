// BatonBench: the programs scripts/bench-http runs. See Bench.swift.
await Bench.main(CommandLine.arguments)

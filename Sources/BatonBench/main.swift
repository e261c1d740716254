// BatonBench: every benchmark scripts/bench-* runs, one subcommand each (`BatonBench --help`). See Bench.swift.
await Bench.main(CommandLine.arguments)

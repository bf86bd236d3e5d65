// Preloaded (`--require`) into the processes bench:gateway profiles (BENCH_CPU_PROFILE_DIR): on
// SIGTERM they exit through process.exit, which writes the V8 CPU profile. Nest's shutdown hook
// would end them by re-sending the signal to themselves, and a process killed by a signal writes none.
process.once('SIGTERM', () => process.exit(0));

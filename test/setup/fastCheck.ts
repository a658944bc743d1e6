import fc from 'fast-check';

/**
 * Property tests are reproducible: the seed comes from FC_SEED (default 20261130), and fast-check
 * prints it with the failing counterexample and its shrink path.
 */
const seed = Number(process.env['FC_SEED'] ?? 20261130);
const numRuns = Number(process.env['FC_RUNS'] ?? 200);

// A run cut short by the time limit fails instead of passing with fewer cases.
fc.configureGlobal({
  seed,
  numRuns,
  endOnFailure: false,
  interruptAfterTimeLimit: 50_000,
  markInterruptAsFailure: true,
});

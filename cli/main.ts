// physvec command line: the process around cli/program.ts. Every failure becomes one line (BadInputError
// and usage errors → exit 2, failed work → 1; --json verbs also get a JSON error document on stdout);
// no verb prints a stack trace, not even for a promise nobody awaited. The failure module (it needs
// Temporal's client to unwrap its errors) is loaded only when something failed: `--help` stays light.
import { runPhysvec } from './program.js';

const args = process.argv.slice(2);
const report = async (err: unknown) => (await import('./failure.js')).reportFailure(err, args);
process.on('unhandledRejection', (err) => {
  void report(err).then((code) => (process.exitCode = code));
});
process.on('uncaughtException', (err) => {
  void report(err).then((code) => process.exit(code));
});

const code = await runPhysvec(args);
process.exitCode = code;

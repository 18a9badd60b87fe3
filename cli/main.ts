// physvec command line: the process around cli/program.ts. Every failure becomes one line (BadInputError
// and usage errors → exit 2, failed work → 1; --json verbs also get a JSON error document on stdout);
// no verb prints a stack trace, not even for a promise nobody awaited.
import { reportFailure } from './failure.js';
import { runPhysvec } from './program.js';

const args = process.argv.slice(2);
process.on('unhandledRejection', (err) => {
  process.exitCode = reportFailure(err, args);
});
process.on('uncaughtException', (err) => {
  process.exit(reportFailure(err, args));
});

const code = await runPhysvec(args);
process.exitCode = code;

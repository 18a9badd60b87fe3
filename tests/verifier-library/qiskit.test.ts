// The qiskit verifier library runs real physics: every function executes in the sandbox and passes its own check.
import { test } from 'node:test';
import { assertProfileLibraryPasses } from './profile-library.js';

test('every qiskit verifier-library function passes its own check in the sandbox, and the index lists them', { timeout: 600_000 }, async (t) => {
  await assertProfileLibraryPasses(t, 'qiskit', 8);
});

// Harness assembly: unit-test scripts, integration levels, main-only variants, function repairs.
export { buildUnitHarness } from './unit-harness.js';
export { buildIntegrationLevels } from './integration-levels.js';
export { replaceMain } from './replace-main.js';
export { verifyElementFunctionsUnchanged } from './variant-check.js';
export { applyFunctionReplacements } from './function-replacements.js';
export { unitHarnessFileName, integrationLevelFileName } from './file-names.js';

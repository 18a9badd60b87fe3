// Harness assembly: unit-test scripts, integration levels, main-only variants, function repairs.
export { buildUnitHarness, BANNER } from './unit-harness.js';
export { buildIntegrationLevels, LEVEL_OK_MARKER, levelSuccessMarker } from './integration-levels.js';
export { replaceMain } from './replace-main.js';
export { verifyElementFunctionsUnchanged } from './variant-check.js';
export { applyFunctionReplacements } from './function-replacements.js';
export { unitHarnessFileName, integrationLevelFileName, scriptExtension } from './file-names.js';

// Light activities of the reference-validation workflow (orchestration queue). The heavy lifting —
// variant building, sandbox runs, numeric checks, convergence steps — reuses the pipeline's own.
import type { ArtifactStore } from '../../lib/artifacts/store.js';
import type { ValidationInput } from '../../schemas/validation.js';
import { loadValidationMaterial } from './material.js';
import { locateCrash, referenceReplacements } from './localise.js';
import { checkOwnSetting } from './own-setting.js';

export function createValidationActivities(store: ArtifactStore) {
  return {
    loadValidationMaterial: (input: ValidationInput) => loadValidationMaterial(store, input),
    locateCrash: (input: Parameters<typeof locateCrash>[1]) => locateCrash(store, input),
    referenceReplacements: (input: Parameters<typeof referenceReplacements>[1]) => referenceReplacements(store, input),
    async checkOwnSetting(input: Parameters<typeof checkOwnSetting>[0]) {
      return checkOwnSetting(input);
    },
  };
}

export type ValidationActivities = ReturnType<typeof createValidationActivities>;

// File names the verifiers' reports refer to; the same as the authors' pipeline uses.
import { scriptExtension, type ScriptLanguage } from '../../schemas/script-structure.js';

export function unitHarnessFileName(functionName: string, language: ScriptLanguage): string {
  return `verify_${functionName}_unittest.${scriptExtension(language)}`;
}

export function integrationLevelFileName(runFunction: string, level: number, language: ScriptLanguage): string {
  return `integrate_${runFunction}_level-${level}_integtest.${scriptExtension(language)}`;
}

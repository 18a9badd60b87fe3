// The knowledge base as an LLM tool: name, description, JSON schema of its parameters, and the
// handler map the LLM layer takes (`createLlmActivities({ tools })`: Record<string, (args: unknown) => Promise<string>>).
import { z } from 'zod';
import { RetrieveArgs } from '../../schemas/kb.js';
import { retrieve } from './retrieve.js';
import { parseRetrieveArgs, type LoadKbOptions } from './search.js';

export const RETRIEVE_TOOL_NAME = 'retrieve';

export const RETRIEVE_TOOL_DESCRIPTION =
  'Search the offline documentation of the numerical packages (docstrings and signatures of physics-tenpy, ' +
  'NetKet, Qiskit + Qiskit Aer, PySCF, and any manuals provided for ITensors or ORCA). Use it before writing ' +
  'code that calls a package API and whenever a run fails with an API error (unknown argument, missing attribute, ' +
  'wrong option name). Query with the concept and, if known, the class or function name, e.g. ' +
  '"tenpy DMRG chi_max max_sweeps" or "Qiskit Estimator expectation values". Returns the top entries with ' +
  'import path, signature and the relevant part of the docstring.';

/** JSON Schema (draft 2020-12) of the tool's arguments, as LLM APIs expect for function parameters. */
export const RETRIEVE_TOOL_PARAMETERS: Record<string, unknown> = (() => {
  const { $schema: _drop, ...schema } = z.toJSONSchema(RetrieveArgs, { io: 'input', unrepresentable: 'any' }) as Record<string, unknown>;
  return schema;
})();

export interface KbToolSpec {
  name: string;
  description: string;
  parameters: Record<string, unknown>;
}

export const RETRIEVE_TOOL_SPEC: KbToolSpec = {
  name: RETRIEVE_TOOL_NAME,
  description: RETRIEVE_TOOL_DESCRIPTION,
  parameters: RETRIEVE_TOOL_PARAMETERS,
};

export type KbToolHandlers = { retrieve: (args: unknown) => Promise<string> };

/**
 * Tool handlers for the LLM layer. Arguments are validated with zod; invalid ones throw BadInputError
 * naming the field. The index is loaded once per process (and built on first use unless autoBuild is false).
 */
export function createKbTools(opts: LoadKbOptions = { autoBuild: true }): KbToolHandlers {
  return {
    retrieve: async (args: unknown) => retrieve(parseRetrieveArgs(args, `${RETRIEVE_TOOL_NAME} tool arguments`), opts),
  };
}

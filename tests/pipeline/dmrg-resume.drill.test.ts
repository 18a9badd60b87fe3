// The resume drill of a long DMRG (TeNPy) simulation: see tests/pipeline/resume-drill.ts.
import { resumeDrill } from './resume-drill.js';

resumeDrill('dmrg');

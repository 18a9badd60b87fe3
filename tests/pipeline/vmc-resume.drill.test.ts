// The resume drill of a long NetKet VMC simulation: see tests/pipeline/resume-drill.ts.
import { resumeDrill } from './resume-drill.js';

resumeDrill('vmc');

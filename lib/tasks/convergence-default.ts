// The stability criterion used when a ConvergenceCase's `criteria` states no number: one place, read by
// the convergence test and by the task-file warnings that say it is being used.
import type { Tolerance } from './truth.js';

export const DEFAULT_CONVERGENCE_TOLERANCE: Tolerance = { type: 'absolute', value: 1e-3, stated: false };

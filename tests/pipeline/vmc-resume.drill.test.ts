// The resume drill of a long NetKet VMC simulation: see tests/pipeline/resume-drill.ts.
// 0.6 of the full 18000 iterations unless PHYSVEC_RESUME_DRILL_SCALE says otherwise: the run still
// lasts minutes, is killed at ~70 % with dozens of checkpoints behind it, and must end bit-identical;
// the full length (the benchmark figures in the README) only costs the CI tier 4 more minutes.
process.env.PHYSVEC_RESUME_DRILL_SCALE ??= '0.6';
const { resumeDrill } = await import('./resume-drill.js');

resumeDrill('vmc');

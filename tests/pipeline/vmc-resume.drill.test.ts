// The resume drill of a long NetKet VMC simulation: see tests/pipeline/resume-drill.ts.
// 0.45 of the full 18000 iterations unless PHYSVEC_RESUME_DRILL_SCALE says otherwise: the run still
// lasts over two minutes (~30 times a resume's fixed cost), is killed at ~70 % with hundreds of
// checkpoints behind it, and must end bit-identical; the full length (the benchmark figures in the
// README) costs the drill tier minutes that CI's 35 does not have.
process.env.PHYSVEC_RESUME_DRILL_SCALE ??= '0.45';
const { resumeDrill } = await import('./resume-drill.js');

resumeDrill('vmc');

// The resume drill of a long DMRG (TeNPy) simulation: see tests/pipeline/resume-drill.ts.
// 0.7 of the full work (chains 80 and 96, chi 167) unless PHYSVEC_RESUME_DRILL_SCALE says otherwise:
// the run still lasts well over a minute, more than twenty times a resume's fixed cost (~3-5 s), so
// the kill-to-end bar means what it says; the full length (three chains to 128, chi 200, ~220 s
// uninterrupted) adds ~4 minutes to a drill tier that must keep CI under 35 minutes.
process.env.PHYSVEC_RESUME_DRILL_SCALE ??= '0.7';
const { resumeDrill } = await import('./resume-drill.js');

resumeDrill('dmrg');

// Two hosts without a shared disk (issue 29.3): the DMRG resume drill with two simulation workers whose
// state, sandbox, scratch and artifacts dirs are separate, sharing only Temporal and a bucket on an
// S3-compatible server (moto_server on loopback): killed on A, resumed on B from the bucket's checkpoint,
// the uninterrupted run's energy. See tests/pipeline/resume-drill.ts.
// Half the work of the shared-dir drill unless PHYSVEC_RESUME_DRILL_SCALE says otherwise: what this file
// adds is the bucket (the resume's speed is dmrg-resume.drill.test.ts's), and the drill tier must fit CI.
process.env.PHYSVEC_RESUME_DRILL_SCALE ??= '0.5';
const { resumeDrill } = await import('./resume-drill.js');

resumeDrill('dmrg', 'bucket');

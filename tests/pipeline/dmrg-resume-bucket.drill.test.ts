// Two hosts without a shared disk (issue 29.3): the DMRG resume drill with two simulation workers whose
// state, sandbox, scratch and artifacts dirs are separate, sharing only Temporal and a bucket on an
// S3-compatible server (moto_server on loopback): killed on A, resumed on B from the bucket's checkpoint,
// the uninterrupted run's energy. See tests/pipeline/resume-drill.ts.
import { resumeDrill } from './resume-drill.js';

resumeDrill('dmrg', 'bucket');

// physvec artifacts sync --to s3://bucket/prefix — copy a state dir's artifact store (scripts, outputs,
// figures, reports, checkpoints, run pins) into a bucket, so workers pointed at the bucket
// (PHYSVEC_ARTIFACTS_URL) find every artifact the runs so far refer to; and the state dir's results
// store (SQLite) and report folders with it, so `results`, `bench report` and `report` find them from
// any host. Idempotent: what is there stays.
import type { Command } from 'commander';

export function register(program: Command): void {
  const artifacts = program.command('artifacts').description('the artifact store (a local directory or an S3-compatible bucket)');
  artifacts
    .command('sync')
    .description("copy a local artifact store into a bucket (content-addressed: objects already there are skipped), with the state dir's results store and reports (to <prefix>/results, <prefix>/reports, <prefix>/campaigns)")
    .requiredOption('--to <url>', 'the bucket and prefix, s3://<bucket>/<prefix>; endpoint, region and credentials from physvec.config.json artifacts.s3 and the AWS environment (AWS_ENDPOINT_URL_S3, AWS_ACCESS_KEY_ID, …)')
    .option('--from <dir>', 'the local store (default: $PHYSVEC_ARTIFACTS_DIR, else <state dir>/artifacts)')
    .option('--json', 'print one JSON document: { from, to, objects, copied, skipped, copiedBytes, totalBytes, results, reports }')
    .action(async (opts: { to: string; from?: string; json?: boolean }) => {
      const { syncArtifacts } = await import('../runs/artifacts-sync.js');
      await syncArtifacts(opts);
    });
}

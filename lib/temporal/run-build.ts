// Which build a run is pinned to (Temporal Worker Versioning), from the system search attributes
// the server keeps on every versioned run — the same in `describe` and in visibility `list`, which
// carries no versioningInfo: what `physvec runs` and `status` show (issue 25.1).
type SearchAttributesLike = Record<string, readonly unknown[] | undefined> | undefined;

/** `<deployment>:<build>` values of a run's version attributes, as build ids. */
function builds(sa: SearchAttributesLike, key: string): string[] {
  const first = sa?.TemporalWorkerDeployment?.[0];
  const deployment = typeof first === 'string' ? first : '';
  return (sa?.[key] ?? []).filter((v): v is string => typeof v === 'string').map((value) => {
    return deployment && value.startsWith(`${deployment}:`) ? value.slice(deployment.length + 1) : value.slice(value.lastIndexOf(':') + 1);
  });
}

/** The build the run is pinned to, or 'unversioned'. */
export function runBuild(sa: SearchAttributesLike): string {
  return builds(sa, 'TemporalWorkerDeploymentVersion')[0] ?? 'unversioned';
}

/** Every build that has served the run (more than one only after an explicit upgrade). */
export function servedByBuilds(sa: SearchAttributesLike): string[] {
  return builds(sa, 'TemporalUsedWorkerDeploymentVersions');
}

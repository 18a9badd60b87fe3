// The Programming verifier's numbers from its verdicts (paper §3.2): unit accuracy over the tests
// that reached a verdict (an undetermined test says nothing about the script, so it neither counts
// against it nor triggers a repair; none determined → 1), integration accuracy as the mean of the
// run_ functions' highest-passed-level ratios (none tested → 1), executable when the full script
// exited 0 within its time.
export interface ProgrammingScores {
  unitAccuracy: number;
  integrationAccuracy: number;
  executable: boolean;
}

export function programmingScores(
  units: readonly { judge: 'correct' | 'wrong' | 'undetermined' }[],
  runFunctions: readonly { correct_ratio: number }[],
  fullRun: { exitCode: number | null; timedOut: boolean },
): ProgrammingScores {
  const determined = units.filter((u) => u.judge !== 'undetermined');
  const unitAccuracy = determined.length ? determined.filter((u) => u.judge === 'correct').length / determined.length : 1;
  const integrationAccuracy = runFunctions.length ? runFunctions.reduce((s, r) => s + r.correct_ratio, 0) / runFunctions.length : 1;
  return { unitAccuracy, integrationAccuracy, executable: fullRun.exitCode === 0 && !fullRun.timedOut };
}

// The results store in an S3-compatible bucket, for workers on several hosts: no SQLite on a shared
// filesystem (its locks do not hold on NFS or a FUSE bucket mount), no lock at all. Layout under the
// store's prefix:
//   campaigns/<campaign>.json       the campaign record, changed only by conditional PUTs
//   runs/<campaign>/<run key>.json  one object per run, written by whichever worker recorded it
// (ids are URI-encoded into one key segment). Runs of one campaign recorded at once on many hosts are
// different keys, so no write can lose another. A campaign record changes read-modify-write with
// If-Match on the ETag read (If-None-Match: * for the first write); a writer that lost the race reads
// again and reapplies its change, so an open, a close and a report path written at once all stay.
import { randomInt } from 'node:crypto';
import { setTimeout as sleep } from 'node:timers/promises';
import type { z } from 'zod';
import { BadInputError, badInputFromZod } from '../errors.js';
import { CampaignRecord, RunRecord } from '../../schemas/campaign.js';
import type { S3Backend } from '../artifacts/s3-backend.js';
import { mapLimit } from '../toolchains/map-limit.js';
import { byRunOrder, newestFirst, previousOf, requireCampaign, unknownCampaign, type OpenCampaign, type ResultsStore } from './results-store.js';

/** GETs in flight when a listing is read back (a campaign of hundreds of runs). */
const READ_PARALLEL = 16;
/** Conditional writes tried before giving up: only a storm of writers to one campaign record gets near it. */
const MAX_TRIES = 20;

const seg = (id: string) => encodeURIComponent(id);
const campaignKey = (id: string) => `campaigns/${seg(id)}.json`;
const runsDir = (id: string) => `runs/${seg(id)}`;
const runKey = (id: string, key: string) => `${runsDir(id)}/${seg(key)}.json`;
const now = () => new Date().toISOString();
const json = (v: unknown) => Buffer.from(JSON.stringify(v, null, 1) + '\n');

export class BucketResultsStore implements ResultsStore {
  constructor(private readonly objects: S3Backend) {}

  get location(): string {
    return this.objects.location;
  }

  private parse<T>(schema: z.ZodType<T>, body: Buffer, key: string): T {
    let raw: unknown;
    try {
      raw = JSON.parse(body.toString('utf8'));
    } catch (err) {
      throw new Error(`results store: ${this.objects.describe(key)} is not JSON (${(err as Error).message}); delete it or restore it from \`physvec results export\``);
    }
    const parsed = schema.safeParse(raw);
    if (!parsed.success) throw badInputFromZod(parsed.error, this.objects.describe(key));
    return parsed.data;
  }

  private async readCampaign(id: string): Promise<{ rec: CampaignRecord; etag: string } | null> {
    const got = await this.objects.readVersioned(campaignKey(id));
    return got && { rec: this.parse(CampaignRecord, got.body, campaignKey(id)), etag: got.etag };
  }

  /**
   * Applies `change` to the campaign record until a conditional write of it succeeds. `change` gets
   * the record as read (null: none yet) and returns the new one, or undefined for no write.
   */
  private async update(id: string, change: (cur: CampaignRecord | null) => CampaignRecord | undefined): Promise<void> {
    for (let attempt = 1; ; attempt++) {
      const cur = await this.readCampaign(id);
      const next = change(cur?.rec ?? null);
      if (!next) return;
      if (await this.objects.writeIf(campaignKey(id), json(next), cur?.etag ?? null)) return;
      if (attempt >= MAX_TRIES) throw new Error(`results store: campaign ${id} at ${this.objects.describe(campaignKey(id))} changed under ${MAX_TRIES} writes in a row; retry`);
      await sleep(randomInt(5, 25 * attempt)); // another writer came first: read its version and apply ours to it
    }
  }

  async openCampaign(rec: OpenCampaign, at: string = now()): Promise<void> {
    if (!rec.campaignId) throw new BadInputError('openCampaign: campaignId is empty; pass the campaign id (the workflow id by default)');
    const fields = { workflowId: rec.workflowId, scheduleId: rec.scheduleId ?? null, label: rec.label ?? null, spec: rec.spec ?? null, planned: rec.planned };
    await this.update(rec.campaignId, (cur) => cur
      ? { ...cur, ...fields, status: 'running', endedAt: null }
      : { campaignId: rec.campaignId, ...fields, status: 'running', startedAt: at, endedAt: null, reportPath: null });
  }

  async recordRun(input: RunRecord): Promise<void> {
    const parsed = RunRecord.safeParse(input);
    if (!parsed.success) throw badInputFromZod(parsed.error, `run record ${(input as { key?: string })?.key ?? '?'}`);
    const rec = parsed.data;
    if (!(await this.objects.has(campaignKey(rec.campaignId)))) {
      throw new BadInputError(`recordRun: campaign ${rec.campaignId} was never opened; call openCampaign before recording its runs`, undefined, 'campaignId');
    }
    const key = runKey(rec.campaignId, rec.key);
    if (rec.outcome !== 'skipped') return this.objects.overwrite(key, json(rec));
    // A skipped record goes only where nothing is, or over another skipped one: never over a run that happened.
    for (let attempt = 1; attempt <= MAX_TRIES; attempt++) {
      const cur = await this.objects.readVersioned(key);
      if (cur && this.parse(RunRecord, cur.body, key).outcome !== 'skipped') return;
      if (await this.objects.writeIf(key, json(rec), cur?.etag ?? null)) return;
    }
  }

  async recordedKeys(campaignId: string): Promise<string[]> {
    const dir = runsDir(campaignId);
    return (await this.objects.list(dir))
      .map((o) => o.key.slice(dir.length + 1))
      .filter((k) => k.endsWith('.json') && !k.includes('/'))
      .map((k) => decodeURIComponent(k.slice(0, -'.json'.length)))
      .sort();
  }

  async closeCampaign(campaignId: string, status: 'completed' | 'failed', at: string = now()): Promise<void> {
    let missing = false;
    await this.update(campaignId, (cur) => {
      if (!cur) return void (missing = true);
      const endedAt = cur.status === status && cur.endedAt ? cur.endedAt : at;
      return cur.status === status && cur.endedAt === endedAt ? undefined : { ...cur, status, endedAt };
    });
    if (missing) throw await unknownCampaign(this, campaignId);
  }

  async setReportPath(campaignId: string, reportPath: string): Promise<void> {
    await this.update(campaignId, (cur) => (cur && cur.reportPath !== reportPath ? { ...cur, reportPath } : undefined));
  }

  async getCampaign(campaignId: string): Promise<CampaignRecord | null> {
    return (await this.readCampaign(campaignId))?.rec ?? null;
  }

  async listCampaigns(): Promise<CampaignRecord[]> {
    const keys = (await this.objects.list('campaigns')).map((o) => o.key).filter((k) => k.endsWith('.json'));
    const recs = await mapLimit(keys, READ_PARALLEL, async (k) => {
      const got = await this.objects.readVersioned(k);
      return got ? this.parse(CampaignRecord, got.body, k) : null; // deleted since the listing
    });
    return recs.filter((r): r is CampaignRecord => r !== null).sort(newestFirst);
  }

  async campaignRuns(campaignId: string): Promise<RunRecord[]> {
    const keys = (await this.objects.list(runsDir(campaignId))).map((o) => o.key).filter((k) => k.endsWith('.json'));
    const runs = await mapLimit(keys, READ_PARALLEL, async (k) => {
      const got = await this.objects.readVersioned(k);
      return got ? this.parse(RunRecord, got.body, k) : null;
    });
    return runs.filter((r): r is RunRecord => r !== null).sort(byRunOrder);
  }

  async previousCampaign(campaignId: string): Promise<CampaignRecord | null> {
    const c = await requireCampaign(this, campaignId);
    return previousOf(await this.listCampaigns(), c);
  }

  /**
   * Copies a campaign and its runs from another store as they are (`physvec artifacts sync`): what the
   * bucket holds already stays. How many records were written now.
   */
  async importCampaign(rec: CampaignRecord, runs: readonly RunRecord[]): Promise<{ campaign: boolean; runs: number }> {
    const written = await mapLimit(runs, READ_PARALLEL, (r) => this.objects.writeIf(runKey(rec.campaignId, r.key), json(RunRecord.parse(r)), null));
    // The record last: a campaign listed in the bucket has its runs there.
    const campaign = await this.objects.writeIf(campaignKey(rec.campaignId), json(CampaignRecord.parse(rec)), null);
    return { campaign, runs: written.filter(Boolean).length };
  }

  async forgetRuns(campaignId: string, keys: readonly string[]): Promise<void> {
    await mapLimit(keys, READ_PARALLEL, (k) => this.objects.remove(runKey(campaignId, k)));
  }
}

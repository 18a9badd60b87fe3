// The embedded results store: one SQLite file in the state directory (db.ts, store.ts), for one host.
// Reading never creates the file (a `results list` on a fresh host says there is nothing yet); the
// first write creates and migrates it. The file is resolved per call, so a process that changes
// PHYSVEC_STATE_DIR (a test) follows it, as the synchronous functions always did.
import path from 'node:path';
import type { CampaignRecord, RunRecord } from '../../schemas/campaign.js';
import { openResultsDb, resultsDbExists, resultsDbPath, type Db } from './db.js';
import { unknownCampaignError, type OpenCampaign, type ResultsStore } from './results-store.js';
import {
  campaignRuns, closeCampaign, deleteRuns, getCampaign, listCampaigns, previousCampaign, recordedKeys, setReportPath, upsertCampaign, upsertRun,
} from './store.js';

export class SqliteResultsStore implements ResultsStore {
  /** `file`: the SQLite file; default <state dir>/results.sqlite at the time of each call. */
  constructor(private readonly file?: string) {}

  get location(): string {
    return path.resolve(this.file ?? resultsDbPath());
  }

  /** True when the file exists. */
  exists(): boolean {
    return resultsDbExists(this.location);
  }

  private db(): Db {
    return openResultsDb(this.location);
  }

  private read<T>(none: T, fn: (db: Db) => T): T {
    return this.exists() ? fn(this.db()) : none;
  }

  async openCampaign(rec: OpenCampaign, at?: string): Promise<void> {
    upsertCampaign(this.db(), rec, at);
  }

  async recordRun(rec: RunRecord): Promise<void> {
    upsertRun(this.db(), rec);
  }

  async recordedKeys(campaignId: string): Promise<string[]> {
    return this.read([], (db) => recordedKeys(db, campaignId));
  }

  async closeCampaign(campaignId: string, status: 'completed' | 'failed', at?: string): Promise<void> {
    if (!this.exists()) throw unknownCampaignError([], campaignId);
    closeCampaign(this.db(), campaignId, status, at);
  }

  async setReportPath(campaignId: string, reportPath: string): Promise<void> {
    this.read(undefined, (db) => setReportPath(db, campaignId, reportPath));
  }

  async getCampaign(campaignId: string): Promise<CampaignRecord | null> {
    return this.read(null, (db) => getCampaign(db, campaignId));
  }

  async listCampaigns(): Promise<CampaignRecord[]> {
    return this.read([], (db) => listCampaigns(db));
  }

  async campaignRuns(campaignId: string): Promise<RunRecord[]> {
    return this.read([], (db) => campaignRuns(db, campaignId));
  }

  async previousCampaign(campaignId: string): Promise<CampaignRecord | null> {
    if (!this.exists()) throw unknownCampaignError([], campaignId);
    return previousCampaign(this.db(), campaignId);
  }

  async forgetRuns(campaignId: string, keys: readonly string[]): Promise<void> {
    this.read(undefined, (db) => deleteRuns(db, campaignId, keys));
  }
}

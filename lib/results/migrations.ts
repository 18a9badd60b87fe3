// The results store's schema as an ordered list of migrations. A store records the versions it has
// applied in `schema_version`; opening it applies the missing ones in order, each in a transaction.
// Never edit a shipped migration: append a new one.
export interface Migration {
  version: number;
  description: string;
  sql: string;
}

export const MIGRATIONS: readonly Migration[] = [
  {
    version: 1,
    description: 'campaigns and runs',
    sql: `
      CREATE TABLE campaigns (
        campaign_id  TEXT PRIMARY KEY,
        workflow_id  TEXT NOT NULL,
        schedule_id  TEXT,
        label        TEXT,
        spec_json    TEXT NOT NULL,
        status       TEXT NOT NULL CHECK (status IN ('running', 'completed', 'failed')),
        started_at   TEXT NOT NULL,
        ended_at     TEXT,
        planned      INTEGER NOT NULL,
        report_path  TEXT
      );
      CREATE INDEX campaigns_schedule ON campaigns (schedule_id, started_at);
      CREATE INDEX campaigns_label ON campaigns (label, started_at);

      -- One row per (campaign, run key). The metric columns make SQL queries across campaigns easy;
      -- metrics_json is the full RunMetrics document and the source of truth when reading back.
      CREATE TABLE runs (
        campaign_id             TEXT NOT NULL REFERENCES campaigns (campaign_id) ON DELETE CASCADE,
        key                     TEXT NOT NULL,
        task_id                 TEXT NOT NULL,
        task_file               TEXT NOT NULL,
        topic                   TEXT NOT NULL,
        model                   TEXT NOT NULL,
        framework               TEXT NOT NULL,
        trial                   INTEGER NOT NULL,
        workflow_id             TEXT NOT NULL,
        outcome                 TEXT NOT NULL CHECK (outcome IN ('done', 'error', 'skipped')),
        recorded_at             TEXT NOT NULL,
        status                  TEXT,
        executable              INTEGER,
        executable_at_iteration INTEGER,
        iterations              INTEGER,
        unit_accuracy           REAL,
        integration_accuracy    REAL,
        tokens_in               INTEGER,
        tokens_out              INTEGER,
        tool_calls              INTEGER,
        llm_calls               INTEGER,
        cost_usd                REAL,
        scientific_completed    INTEGER,
        scientific_iteration    INTEGER,
        wall_ms                 REAL,
        scripted                INTEGER,
        metrics_json            TEXT,
        PRIMARY KEY (campaign_id, key)
      );
      CREATE INDEX runs_group ON runs (campaign_id, topic, model, framework);
    `,
  },
];

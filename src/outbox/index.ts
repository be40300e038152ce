/**
 * `payments-service-sdk/outbox`: durable payouts on your own database. Record the payout in your transaction
 * (`enqueue`), then settle it from a worker (`work`) or your queue's job (`settle`): one owner per payout at a
 * time, decided by the database, and never a second POST without a lookup first. See docs/payouts-at-scale.md.
 */

export {
  type ExpectedPayout,
  type ReconcileOptions,
  type ReconciliationReport,
  type ReconciliationRow,
  reconciliationCsv,
} from '../payouts/reconcile/reconcile.js';
export { OutboxEnvironmentError } from './environment-error.js';
export { type MemoryOutboxStoreOptions, memoryOutboxStore } from './memory.js';
export type {
  OutboxTrackingOptions,
  PayoutLifeHooks,
  PayoutOutboxClient,
  PayoutOutboxHooks,
  PayoutOutboxOptions,
} from './options.js';
export {
  type ArchiveOptions,
  createPayoutOutbox,
  type EnqueueOptions,
  type EnqueueResult,
  type ListOptions,
  type OutboxCounts,
  type PayoutOutbox,
  type VerbOptions,
} from './outbox.js';
export { type PostgresOutboxStoreOptions, type PostgresQueryable, postgresOutboxStore } from './postgres.js';
export { type OutboxReconcileOptions, type ReconcileClient, reconcilePayouts } from './reconcile.js';
export { DEFAULT_OUTBOX_TABLE, postgresOutboxSchema, sqliteOutboxSchema } from './sql.js';
export {
  type SqliteDatabase,
  type SqliteOutboxStoreOptions,
  type SqliteValue,
  sqliteOutboxStore,
} from './sqlite.js';
export type {
  InsertResult,
  OutboxAttempt,
  OutboxChange,
  OutboxDelivery,
  OutboxLife,
  OutboxListQuery,
  OutboxReopen,
  OutboxRow,
  OutboxTombstone,
  OutboxWrite,
  PayoutOutboxStore,
  PayoutRecord,
  PayoutState,
  StoredBody,
  StoredResult,
} from './types.js';
export { OPEN_STATES, STATES } from './types.js';
export type { WorkOptions, WorkSummary } from './work.js';

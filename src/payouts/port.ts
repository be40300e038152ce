import type { PagePromise } from '../core/pagination.js';
import type { Call, Pipeline } from '../internal/pipeline.js';
import type { RequestOptions } from '../internal/request-options.js';
import type { QueryValue } from '../internal/transport.js';
import type { Payout, PayoutWire } from '../rules/payout.js';
import type { ListTransactions } from './proof/listing-proof.js';

/**
 * What the payout functions of `payments-service-sdk/payouts` (`lookupBeforeRetry`, `trackPayout`, ...) reach a
 * client through. The client's payouts namespace (resources/payouts.ts, a layer above) provides it when it is
 * built, so the functions take a `PaymentsClient` while importing nothing above this folder. The uploads entry
 * sends through the same port's pipeline: one registry says whether a value is a client of this copy.
 */
export interface PayoutPort {
  /** The client's pipeline: its calls, logger and settings. */
  readonly api: Pipeline;
  /** The listings a search and a tracker read. */
  readonly listings: PortListings;
  /** `payouts.check`: every field, the amount in its currency, the client's `payoutLimits`. */
  check(body: unknown, options: { digits?: number | undefined }): PayoutWire;
  /** `payouts.assignsReference`. */
  assignsReference(currency: string): boolean;
  /** POST /payouts as `payouts.create` sends it. */
  post(body: PayoutWire, options?: RequestOptions): Call<Payout>;
  /** The beneficiary check, with the bank codes this client keeps; a no-op where `call` and the client say off. */
  checkBeneficiary(wire: PayoutWire, call: unknown, options: RequestOptions | undefined): Promise<void>;
}

/** The client's listings: GET /transactions, and GET /wallet/transactions (its rows as the service sent them). */
export interface PortListings {
  readonly transactions: { list: ListTransactions };
  readonly wallet: {
    readonly transactions: {
      list(
        params: { pageSize?: number; query?: Record<string, QueryValue> },
        options: RequestOptions,
      ): PagePromise<Record<string, unknown>>;
    };
  };
}

/** A `PaymentsClient`, as the payout functions type it; `payoutPort` checks it is one when they are called. */
export interface PaymentsClientLike {
  readonly payouts: object;
}

const ports = new WeakMap<object, PayoutPort>();

/** Called by the payouts namespace as it is built. */
export function providePayoutPort(payouts: object, port: PayoutPort): void {
  ports.set(payouts, port);
}

/** Whether `client` is a `PaymentsClient` of this copy of the SDK, which the payout functions can reach. */
export function hasPayoutPort(client: unknown): boolean {
  return ports.has((client as { payouts?: object } | null)?.payouts ?? {});
}

/**
 * The port of `client`'s payouts: a `TypeError` naming `what` for anything that is not a `PaymentsClient` of this
 * copy of the SDK (a second copy, e.g. one loaded by `require` beside one loaded by `import`, is refused too).
 */
export function payoutPort(client: unknown, what: string): PayoutPort {
  const port = ports.get((client as { payouts?: object } | null)?.payouts ?? {});
  if (!port) {
    throw new TypeError(
      `${what}: the first argument must be a PaymentsClient (from this copy of payments-service-sdk)`,
    );
  }
  return port;
}

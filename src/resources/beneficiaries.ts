import * as z from 'zod/mini';
import { APIPromise, responseInfo } from '../core/api-promise.js';
import {
  APIConnectionError,
  APIError,
  BadRequestError,
  NotFoundError,
  RateLimitError,
} from '../core/error.js';
import type { PagePromise } from '../core/pagination.js';
import type { RequestOptions } from '../internal/config.js';
import { safeStringify } from '../internal/json.js';
import { REQUEST_OPTION_KEYS } from '../internal/option-bags.js';
import { optionKeys, refuseUnknownKeys } from '../internal/option-keys.js';
import { ownData } from '../internal/own.js';
import { uuidSegment } from '../internal/path.js';
import { backoffDelay, jitter, MAX_RETRY_AFTER_MS, RETRY_STATUSES } from '../internal/retry.js';
import { looseObject, openEnum, pagingParams, parseRequest } from '../internal/schema.js';
import { sleep } from '../internal/sleep.js';
import { beneficiaryInputSchema, beneficiaryWire, WITHDRAWAL_METHODS } from '../rules/beneficiary.js';
import type { BeneficiaryInput } from './beneficiary-types.js';
import { APIResource } from './resource.js';

export { beneficiaryInputIssues, WITHDRAWAL_METHODS, type WithdrawalMethod } from '../rules/beneficiary.js';
// The input types and the rail rules are part of this resource's surface.
export * from './beneficiary-types.js';

const optionalString = z.optional(z.string());

/**
 * A beneficiary as the service returns it. Only populated fields are present (a crypto beneficiary carries no bank
 * fields), fields this SDK does not know yet are kept, and names stay snake_case as on the wire.
 */
export const BeneficiarySchema = looseObject({
  /** uuid: the id `update`, `retrieve` and `delete` take. */
  id: z.string(),
  /** The account holder's name; a nickname for crypto and `platform_transfer`. */
  account_name: optionalString,
  /** Currency code. */
  currency: optionalString,
  /** The beneficiary's email address. */
  email: optionalString,
  /** Your friendly label. */
  label: optionalString,
  /** Bank rails only (a crypto beneficiary never carries bank fields). */
  account_number: optionalString,
  /** Bank rails only. */
  bank_name: optionalString,
  /** Bank rails only: the NIP institution code for NGN. */
  bank_code: optionalString,
  /**
   * The rail: `domestic_wire`, `international_wire`, `ach`, `local_transfer`, `crypto_usdt`, `crypto_usdc`,
   * `platform_transfer` or `mobile_money`. Always present; null when no rail was set (an NGN bank transfer).
   */
  withdrawal_method: z.nullable(openEnum(WITHDRAWAL_METHODS)),
  /**
   * Present only during the grace period, when a required classification field (`account_owner_type`,
   * `account_category`) was omitted; the spec does not show its fields. After the enforcement date the
   * omission is a 400.
   */
  deprecation_warning: z.optional(z.record(z.string(), z.unknown())),
});
/** A saved beneficiary. */
export type Beneficiary = z.infer<typeof BeneficiarySchema>;

/** Paging of the beneficiary list (the spec shows no other filters). */
export interface BeneficiaryListParams {
  /** 1 or more; default 1. */
  page?: number;
  /** At least 1; default 20. The spec states no ceiling for this list ("maximum 100 on most endpoints"). */
  pageSize?: number;
}

const ListParamsSchema = z.strictObject(pagingParams());

/** Per-call options of `create` and `update`. */
export interface BeneficiaryWriteOptions extends RequestOptions {
  /**
   * Sends a body without the `account_owner_type`/`account_category` the SDK otherwise demands, for records you
   * cannot classify yet. The service accepts that only during its deprecation grace period (then answers with
   * `deprecation_warning`) and rejects it with 400 afterwards. The types still demand the fields: cast on purpose.
   */
  allowUnclassified?: boolean;
}

const WRITE_OPTION_KEYS = optionKeys<BeneficiaryWriteOptions>()([
  ...REQUEST_OPTION_KEYS,
  'allowUnclassified',
]);

/** True for the service's answer to an unknown (or another business's) beneficiary id: 400 `Beneficiary not found`. */
export function isBeneficiaryNotFound(error: unknown): boolean {
  // The spec answers 400; a 404 with the same message is accepted too in case the service moves to it.
  return (
    (error instanceof BadRequestError || error instanceof NotFoundError) &&
    /Beneficiary not found/i.test(error.message)
  );
}

// One warning per client is enough to prompt a backfill; every response still carries the field itself.
const warned = new WeakSet<object>();

/**
 * Saved beneficiaries. PATCH and DELETE are in the spec; the create, retrieve and list paths are inferred from
 * them (the spec names those operations without showing them).
 */
export class Beneficiaries extends APIResource {
  readonly #schema = z.pipe(
    BeneficiarySchema,
    z.transform((beneficiary: Beneficiary) => {
      if (beneficiary.deprecation_warning && !warned.has(this.client)) {
        warned.add(this.client);
        this.api.logger.log(
          'warn',
          `Beneficiary ${beneficiary.id} lacks account_owner_type/account_category; the service accepted it ` +
            `during its grace period with deprecation_warning ${safeStringify(beneficiary.deprecation_warning)}. ` +
            'Send both fields (update backfills them): omission will be rejected with 400. Logged once per client.',
        );
      }
      return beneficiary;
    }),
  );

  /** POST /beneficiaries (path inferred). Validates the body for its rail first; never retried (not idempotent). */
  create(body: BeneficiaryInput, options?: BeneficiaryWriteOptions): APIPromise<Beneficiary> {
    return this.api.call(async () => {
      refuseUnknownKeys(options, WRITE_OPTION_KEYS);
      const { allowUnclassified, ...rest } = options ?? {};
      const json = beneficiaryWire(parseRequest(beneficiaryInputSchema({ allowUnclassified }), body));
      return {
        method: 'POST',
        path: '/beneficiaries',
        body: json,
        schema: this.#schema,
        options: rest,
      };
    });
  }

  /** GET /beneficiaries/{id} (path inferred). An unknown id rejects with a 400: see `isBeneficiaryNotFound`. */
  retrieve(id: string, options?: RequestOptions): APIPromise<Beneficiary> {
    return this.api.call(async () => {
      const path = `/beneficiaries/${uuidSegment('beneficiaryId', id)}`;
      return { method: 'GET', path, schema: this.#schema, options };
    });
  }

  /** GET /beneficiaries (path inferred), page by page; the rows' key is not in the spec, so it is found. */
  list(params: BeneficiaryListParams = {}, options?: RequestOptions): PagePromise<Beneficiary> {
    return this.api.list({
      path: '/beneficiaries',
      shape: 'flat',
      query: () => parseRequest(ListParamsSchema, params),
      schema: this.#schema,
      options,
    });
  }

  /**
   * PATCH /beneficiaries/{id}. The body replaces the whole beneficiary: send the complete required set for its rail.
   * Omitting `withdrawal_method` keeps the stored rail (the SDK, not knowing it, then checks only what every
   * rail shares; restate the rail to have its fields checked); null or '' clears it. Also how older records get their classification backfilled.
   */
  update(id: string, body: BeneficiaryInput, options?: BeneficiaryWriteOptions): APIPromise<Beneficiary> {
    return this.api.call(async () => {
      const path = `/beneficiaries/${uuidSegment('beneficiaryId', id)}`;
      refuseUnknownKeys(options, WRITE_OPTION_KEYS);
      const { allowUnclassified, ...rest } = options ?? {};
      const json = beneficiaryWire(
        parseRequest(beneficiaryInputSchema({ mode: 'update', allowUnclassified }), body),
      );
      return { method: 'PATCH', path, body: json, schema: this.#schema, options: rest };
    });
  }

  /**
   * DELETE /beneficiaries/{id}: permanent; resolves with nothing (the service sends an empty object). The first
   * DELETE is sent once. If it met a failure the retry policy retries (408, 429, 5xx, a lost connection, a
   * timeout), it may have gone through, so it is sent again after the backoff (or `Retry-After`), and that repeat
   * is retried like any GET (`maxRetries`). A 400 `Beneficiary not found` answering the repeat means the first
   * went through: the delete resolves. On the first attempt it throws (the id was never there).
   */
  delete(id: string, options?: RequestOptions): APIPromise<void> {
    return APIPromise.from(async () => {
      const path = `/beneficiaries/${uuidSegment('beneficiaryId', id)}`;
      const attempts = 1 + this.api.maxRetries(options);
      const signal = ownData(options)?.signal;
      // Each DELETE is sent once by the transport; the loop here knows what each attempt met. One that met a
      // 5xx, a 408, a lost connection or a timeout may have been carried out; a 429 was refused before it was.
      let ambiguous = false;
      for (let attempt = 1; ; attempt++) {
        try {
          return await this.api
            .call<void>({
              method: 'DELETE',
              path,
              select: () => undefined,
              options: { ...ownData(options), maxRetries: 0 },
            })
            .withResponse();
        } catch (error) {
          // "Not found" after an attempt that may have gone through: that attempt removed it.
          if (ambiguous && isBeneficiaryNotFound(error) && (error as Error).message.includes(id)) {
            return { data: undefined, response: responseInfo(error as APIError) };
          }
          const wait = waitBeforeRepeat(error);
          if (wait === undefined || attempt >= attempts) throw error;
          ambiguous ||= !(error instanceof RateLimitError);
          this.api.logger.log('info', `retrying DELETE ${path} after ${(error as Error).message}`);
          await sleep(wait, signal);
        }
      }
    });
  }
}

/**
 * How long to wait before sending a DELETE again: `undefined` unless it met a failure the retry policy retries,
 * after which it may or may not have been carried out (a timeout is a connection error too; the caller's abort
 * and an accepted 2xx whose body was lost are not), or when the server's `Retry-After` is over the cap.
 */
function waitBeforeRepeat(error: unknown): number | undefined {
  if (error instanceof APIConnectionError) return jitter(backoffDelay(1));
  if (!(error instanceof APIError && RETRY_STATUSES.includes(error.status))) return undefined;
  const ms = error.retryAfter === undefined ? jitter(backoffDelay(1)) : error.retryAfter * 1000;
  return ms > MAX_RETRY_AFTER_MS ? undefined : ms;
}
